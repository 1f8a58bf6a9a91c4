/**
 * The popup an OAuth connection (accounting, e-signature vendors, identity providers) returns to.
 * It tells the window that opened it that the flow finished, passing the callback's query (code,
 * state, error) so the opener can complete it, then closes itself. The message is addressed to
 * this site's origin only, so a code can never be handed to another site's window.
 */
export const OAUTH2_CALLBACK_MESSAGE = 'atrium:oauth2callback';

export interface OAuth2CallbackMessage {
  type: typeof OAUTH2_CALLBACK_MESSAGE;
  status: 'finished';
  params: Record<string, string>;
}

export function finishOAuth2Callback(
  win: Pick<Window, 'opener' | 'location' | 'close'>,
  openChannel: ((name: string) => Pick<BroadcastChannel, 'postMessage' | 'close'>) | null = typeof BroadcastChannel ===
  'undefined'
    ? null
    : (name) => new BroadcastChannel(name),
): boolean {
  const message: OAuth2CallbackMessage = {
    type: OAUTH2_CALLBACK_MESSAGE,
    status: 'finished',
    params: Object.fromEntries(new URLSearchParams(win.location.search)),
  };
  const opener = win.opener as Window | null;
  if (!opener) {
    // The app is served with Cross-Origin-Opener-Policy: same-origin, so once the popup has been on
    // the vendor's site it comes back without an opener. A BroadcastChannel reaches this origin's
    // windows only (never another site's), so the page that started the flow still hears it; this
    // window then tries to close and otherwise says it may be closed.
    if (openChannel && (message.params.code || message.params.error)) {
      const channel = openChannel(OAUTH2_CALLBACK_MESSAGE);
      channel.postMessage(message);
      channel.close();
      win.close();
    }
    return false;
  }
  opener.postMessage(message, win.location.origin);
  win.close();
  return true;
}
