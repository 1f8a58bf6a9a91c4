import { describe, expect, it } from 'vitest';
import { libraryCompletions } from './library-completion.js';

const components = [
  { name: 'signature-block', description: 'Closing and signature' },
  { name: 'address-block', description: '' },
];
const assets = [{ name: 'atrium-logo.svg', mime_type: 'image/svg+xml' }];

describe('libraryCompletions', () => {
  it('offers component files after "/components/", narrowed by what is typed', () => {
    expect(libraryCompletions('#import "/components/', components, assets).map((c) => c.label)).toEqual([
      'signature-block.typ',
      'address-block.typ',
    ]);
    expect(libraryCompletions('#import "/components/sig', components, assets)).toEqual([
      { label: 'signature-block.typ', kind: 'component', detail: 'Closing and signature', startColumn: 22 },
    ]);
  });

  it('offers assets after "/assets/", and nothing elsewhere', () => {
    expect(libraryCompletions('#image("/assets/at', components, assets)).toEqual([
      { label: 'atrium-logo.svg', kind: 'asset', detail: 'image/svg+xml', startColumn: 17 },
    ]);
    expect(libraryCompletions('#data.policy.', components, assets)).toEqual([]);
    expect(libraryCompletions('"/components/x.typ": *', components, assets)).toEqual([]);
  });
});
