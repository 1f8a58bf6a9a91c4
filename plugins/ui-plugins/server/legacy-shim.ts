/**
 * The previous portal's plugins (issue 22 item 4) load that portal's library from its CDN. When
 * Atrium serves a plugin's HTML, any script tag whose `src` ends in `britecore-ui-plugins.js`
 * (optionally `.min.js`, with a query) is pointed at the local shim instead, so such plugins run
 * unchanged and nothing is fetched from outside (the sandbox CSP would refuse it anyway).
 */
export const LEGACY_SHIM_PATH = '/api/integrations/plugins/sdk/britecore-ui-plugins.js';

const LEGACY_SCRIPT = /(<script\b[^>]*?\bsrc\s*=\s*)(["'])[^"']*britecore-ui-plugins(?:\.min)?\.js(?:[?#][^"']*)?\2/gi;

export function rewriteLegacyLibrary(html: string): string {
  return html.replace(
    LEGACY_SCRIPT,
    (_match, start: string, quote: string) => `${start}${quote}${LEGACY_SHIM_PATH}${quote}`,
  );
}
