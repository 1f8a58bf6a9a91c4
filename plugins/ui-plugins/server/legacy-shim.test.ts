import { describe, expect, it } from 'vitest';
import { LEGACY_SHIM_PATH, rewriteLegacyLibrary } from './legacy-shim.js';

describe('rewriteLegacyLibrary', () => {
  it('points the previous portal’s library at the local shim and leaves other scripts alone', () => {
    const html = [
      '<script src="https://cdn.example.com/x/britecore-ui-plugins.js"></script>',
      "<script type='text/javascript' src='//cdn.example.com/britecore-ui-plugins.min.js?v=3'></script>",
      '<script src="app.js"></script>',
      '<p>britecore-ui-plugins.js</p>',
    ].join('\n');
    expect(rewriteLegacyLibrary(html)).toBe(
      [
        `<script src="${LEGACY_SHIM_PATH}"></script>`,
        `<script type='text/javascript' src='${LEGACY_SHIM_PATH}'></script>`,
        '<script src="app.js"></script>',
        '<p>britecore-ui-plugins.js</p>',
      ].join('\n'),
    );
  });
});
