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

export function finishOAuth2Callback(win: Pick<Window, 'opener' | 'location' | 'close'>): boolean {
  const message: OAuth2CallbackMessage = {
    type: OAUTH2_CALLBACK_MESSAGE,
    status: 'finished',
    params: Object.fromEntries(new URLSearchParams(win.location.search)),
  };
  const opener = win.opener as Window | null;
  if (!opener) return false;
  opener.postMessage(message, win.location.origin);
  win.close();
  return true;
}
