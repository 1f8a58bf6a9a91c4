import { describe, expect, it } from 'vitest';
import { parsePluginMessage, MAX_MESSAGE_CHARS } from './bridge-protocol.js';
import { applyRiskPatch, newRiskAnswers } from './risk-patch.js';

const risk = { field_answers: { roof_type: 'tile', stories: 2 } };
const fields = ['roof_type', 'stories', 'sprinklers'];

describe('applyRiskPatch', () => {
  it('returns the answers a patch changes, and clears removed ones', () => {
    expect(
      applyRiskPatch(
        risk,
        [
          { op: 'replace', path: '/field_answers/roof_type', value: 'metal' },
          { op: 'add', path: '/field_answers/sprinklers', value: true },
          { op: 'remove', path: '/field_answers/stories' },
        ],
        fields,
      ),
    ).toEqual({ ok: true, changed: { roof_type: 'metal', sprinklers: true, stories: null } });
    expect(risk.field_answers).toEqual({ roof_type: 'tile', stories: 2 });
  });

  it('offers every field, unanswered ones as null, so replace works on them', () => {
    expect(applyRiskPatch(risk, [{ op: 'replace', path: '/field_answers/sprinklers', value: false }], fields)).toEqual({
      ok: true,
      changed: { sprinklers: false },
    });
  });

  it('honours test operations', () => {
    expect(applyRiskPatch(risk, [{ op: 'test', path: '/field_answers/roof_type', value: 'slate' }], fields)).toEqual({
      ok: false,
      error: 'The patch does not apply (TEST_OPERATION_FAILED).',
    });
  });

  it('refuses malformed patches and anything outside the risk’s own answers', () => {
    const refused = (patch: unknown) => applyRiskPatch(risk, patch, fields).ok;
    expect(refused('nope')).toBe(false);
    expect(refused([])).toBe(false);
    expect(refused([{ op: 'delete', path: '/field_answers/roof_type' }])).toBe(false);
    expect(refused([{ op: 'replace', path: '/field_answers/missing/deep', value: 1 }])).toBe(false);
    expect(refused([{ op: 'add', path: '/premium', value: '0.00' }])).toBe(false);
    expect(refused([{ op: 'replace', path: '', value: { field_answers: {}, quote: 1 } }])).toBe(false);
    expect(refused([{ op: 'add', path: '/field_answers/premium', value: '0.00' }])).toBe(false);
    expect(refused([{ op: 'add', path: '/field_answers/roof_type', value: { nested: true } }])).toBe(false);
    expect(refused([{ op: 'add', path: '/__proto__/polluted', value: true }])).toBe(false);
    expect(refused([{ op: 'add', path: '/field_answers/__proto__/polluted', value: true }])).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parsePluginMessage', () => {
  it('accepts the protocol’s messages and drops the rest', () => {
    expect(parsePluginMessage({ type: 'hello', version: 1 })).toEqual({ type: 'hello', version: 1 });
    expect(parsePluginMessage({ type: 'buttons', buttons: [{ id: 'a', text: 'Check roof' }] })).not.toBeNull();
    expect(parsePluginMessage({ type: 'eval', code: 'x' })).toBeNull();
    expect(parsePluginMessage('hello')).toBeNull();
    const cyclic: Record<string, unknown> = { type: 'hello' };
    cyclic.self = cyclic;
    expect(parsePluginMessage(cyclic)).toBeNull();
    expect(parsePluginMessage({ type: 'toast', message: 'x'.repeat(MAX_MESSAGE_CHARS) })).toBeNull();
    expect(
      parsePluginMessage({
        type: 'buttons',
        buttons: Array.from({ length: 6 }, (_, i) => ({ id: `${i}`, text: 'b' })),
      }),
    ).toBeNull();
  });
});

describe('newRiskAnswers (create-and-update-risk)', () => {
  const children = [{ name: 'scheduled_article', label: 'Scheduled article', fields: ['category', 'appraised_value'] }];
  it('applies the patch to an empty risk of a child type', () => {
    expect(
      newRiskAnswers(
        'scheduled_article',
        [
          { op: 'replace', path: '/field_answers/category', value: 'watch' },
          { op: 'add', path: '/field_answers/appraised_value', value: 4200 },
        ],
        children,
      ),
    ).toEqual({ ok: true, changed: { category: 'watch', appraised_value: 4200 } });
  });
  it('refuses a type that does not go under the risk, and fields the type lacks', () => {
    expect(newRiskAnswers('home', [{ op: 'add', path: '/field_answers/x', value: 1 }], children)).toEqual({
      ok: false,
      error: 'A home risk cannot go under this risk (it takes Scheduled article).',
    });
    expect(newRiskAnswers('home', [{ op: 'add', path: '/field_answers/x', value: 1 }], [])).toEqual({
      ok: false,
      error: 'No risk goes under this risk.',
    });
    expect(
      newRiskAnswers('scheduled_article', [{ op: 'add', path: '/field_answers/zip', value: 1 }], children),
    ).toEqual({
      ok: false,
      error: 'This risk has no field zip.',
    });
  });
});
