import { defineConfig, mergeConfig } from 'vite';
import base from '../../vite.config.js';

// React's profiling build, unminified, for tests/bench/trace-page.ts with REACT_COMPONENTS=1: its
// component track (console.timeStamp) names each component's render and its duration.
//   npx vite build -c tests/bench/vite.profile.config.ts --outDir /tmp/web-profile
export default mergeConfig(
  base,
  defineConfig({
    resolve: { alias: [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }] },
    build: { minify: false },
  }),
);
