import { describe, expect, it, vi } from 'vitest';
import { finishOAuth2Callback, OAUTH2_CALLBACK_MESSAGE } from './oauth2-callback.js';

describe('oauth2 callback', () => {
  it('tells the opener it finished, on this origin only, then closes itself', () => {
    const postMessage = vi.fn();
    const close = vi.fn();
    const win = {
      opener: { postMessage },
      location: { search: '?code=abc&state=xyz', origin: 'https://portal.example.com' },
      close,
    } as unknown as Window;
    expect(finishOAuth2Callback(win)).toBe(true);
    expect(postMessage).toHaveBeenCalledWith(
      { type: OAUTH2_CALLBACK_MESSAGE, status: 'finished', params: { code: 'abc', state: 'xyz' } },
      'https://portal.example.com',
    );
    expect(close).toHaveBeenCalled();
  });

  it('stays open when there is no opener to tell', () => {
    const close = vi.fn();
    const win = {
      opener: null,
      location: { search: '', origin: 'https://portal.example.com' },
      close,
    } as unknown as Window;
    expect(finishOAuth2Callback(win)).toBe(false);
    expect(close).not.toHaveBeenCalled();
  });

  it('without an opener (cut off by the opener policy), tells this origin’s windows on a BroadcastChannel', () => {
    const postMessage = vi.fn();
    const close = vi.fn();
    const win = {
      opener: null,
      location: { search: '?code=abc&state=xyz', origin: 'https://portal.example.com' },
      close,
    } as unknown as Window;
    const opened: string[] = [];
    const result = finishOAuth2Callback(win, (name) => (opened.push(name), { postMessage, close: vi.fn() }));
    expect(result).toBe(false);
    expect(opened).toEqual([OAUTH2_CALLBACK_MESSAGE]);
    expect(postMessage).toHaveBeenCalledWith({
      type: OAUTH2_CALLBACK_MESSAGE,
      status: 'finished',
      params: { code: 'abc', state: 'xyz' },
    });
    expect(close).toHaveBeenCalled();
  });
});
