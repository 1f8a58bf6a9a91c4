import { OAUTH2_CALLBACK_MESSAGE } from '../shared/vendors.js';

/** As long as the server keeps an authorization's state (connections.ts). */
const GIVE_UP_MS = 10 * 60_000;

/**
 * Runs an OAuth authorization in a popup that returns to the host's `/oauth2callback` page. The
 * popup is opened blank during the click (so no blocker stops it) and sent to the vendor once the
 * server answered the URL. The app's Cross-Origin-Opener-Policy cuts the popup off from this window
 * as soon as it reaches the vendor, so the callback page answers on a same-origin BroadcastChannel
 * (and by postMessage when it still has its opener); only a message carrying the state this flow
 * started with is taken. Resolves with the callback's parameters, or null when `signal` aborts
 * (Cancel) or after ten minutes.
 */
export async function authorizeInPopup(
  authorizationUrl: () => Promise<string>,
  signal?: AbortSignal,
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
  const state = new URL(url).searchParams.get('state');
  popup.location.href = url;
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(OAUTH2_CALLBACK_MESSAGE);
    const take = (data: unknown) => {
      const message = data as { type?: string; params?: Record<string, string> } | null;
      if (message?.type !== OAUTH2_CALLBACK_MESSAGE || message.params?.state !== state) return;
      done(message.params ?? {});
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin) take(event.data);
    };
    const onBroadcast = (event: MessageEvent) => take(event.data);
    const timer = window.setTimeout(() => done(null), GIVE_UP_MS);
    // The user closed the popup (this window cannot see that once the opener policy cut it off).
    const onAbort = () => done(null);
    signal?.addEventListener('abort', onAbort);
    const done = (result: Record<string, string> | null) => {
      signal?.removeEventListener('abort', onAbort);
      window.removeEventListener('message', onMessage);
      channel.removeEventListener('message', onBroadcast);
      channel.close();
      window.clearTimeout(timer);
      resolve(result);
    };
    window.addEventListener('message', onMessage);
    channel.addEventListener('message', onBroadcast);
  });
}
