import { describe, expect, it } from 'vitest';
import { parsePluginMessage } from './bridge-protocol.js';
import { apiPathProblem, capabilityFor, refusal } from './plugin-capabilities.js';

describe('plugin capabilities', () => {
  it('names the capability each message needs; buttons need none', () => {
    const need = (m: unknown) => capabilityFor(parsePluginMessage(m)!);
    expect(need({ type: 'buttons', buttons: [] })).toBeNull();
    expect(need({ type: 'toast', message: 'hi' })).toBe('toast');
    expect(need({ type: 'navigate', call: 'c', route: 'quote:page' })).toBe('navigate');
    expect(need({ type: 'request', call: 'c', method: 'GET', path: '/quote/Q-1/' })).toBe('api-read');
    expect(need({ type: 'request', call: 'c', method: 'DELETE', path: '/quote/Q-1/' })).toBe('api-write');
    expect(
      need({
        type: 'create-and-update-risk',
        call: 'c',
        risks: [{ risk_type: 'x', patch: [{ op: 'test', path: '' }] }],
      }),
    ).toBe('create-and-update-risk');
  });

  it('says which capability is missing and who grants it', () => {
    expect(refusal('Roof helper', 'navigate')).toBe(
      'Roof helper may not do this: its record does not grant “Navigate” (navigate). An administrator grants capabilities on the plugin’s record.',
    );
  });

  it('lets API requests reach the business areas only, as plain API paths', () => {
    expect(apiPathProblem('/quote/Q-1001/')).toBeNull();
    expect(apiPathProblem('/policies/P%2D1/')).toBeNull();
    for (const path of [
      '/identity/tokens/refresh',
      '/integrations/plugins/',
      '/access/evaluations',
      'quote/Q-1/',
      'https://evil.test/quote/',
      '//evil.test/quote/',
      '/quote/../identity/sign-in',
      '/quote/%2e%2e/identity/',
      '/quote/Q-1/?token=1',
      '/quote/%3Fx',
    ])
      expect(apiPathProblem(path), path).not.toBeNull();
  });
});
