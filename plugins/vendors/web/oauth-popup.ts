import { OAUTH2_CALLBACK_MESSAGE } from '../shared/vendors.js';

/**
 * Runs an OAuth authorization in a popup that returns to the host's `/oauth2callback` page, which
 * posts its query to this window (same origin only) and closes. The popup is opened blank during
 * the click (so no blocker stops it) and sent to the vendor once the server answered the URL.
 * Resolves with the callback's parameters, or null when the user closed the popup.
 */
export async function authorizeInPopup(
  authorizationUrl: () => Promise<string>,
): Promise<Record<string, string> | null> {
  const popup = window.open('', 'atrium-vendor-oauth', 'popup,width=620,height=720');
  if (!popup) throw new Error('The browser blocked the sign-in window. Allow pop-ups for this site and try again.');
  let url: string;
  try {
    url = await authorizationUrl();
  } catch (error) {
    popup.close();
    throw error;
  }
  popup.location.href = url;
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== popup) return;
      const data = event.data as { type?: string; params?: Record<string, string> };
      if (data?.type !== OAUTH2_CALLBACK_MESSAGE) return;
      done(data.params ?? {});
    };
    const closed = window.setInterval(() => {
      if (popup.closed) done(null);
    }, 500);
    const done = (result: Record<string, string> | null) => {
      window.removeEventListener('message', onMessage);
      window.clearInterval(closed);
      resolve(result);
    };
    window.addEventListener('message', onMessage);
  });
}
