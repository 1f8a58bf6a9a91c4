import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { examplePlugins } from './scripts/example-plugins-plugin.js';
import { precompress } from './scripts/precompress-plugin.js';
import { startupChunk } from './scripts/startup-chunk-plugin.js';

/**
 * Builds the SPA (packages/host plus every plugin's web half, without the example plugins unless
 * ATRIUM_EXAMPLE_PLUGINS=true) into dist/web, with a brotli and a gzip copy of every text asset for
 * the server to send as they are; in dev serves it with hot reload, examples included, and proxies
 * /api to the API process (scripts/dev.mjs starts both).
 */
const apiPort = process.env.ATRIUM_API_PORT ?? '8080';

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'packages/host'),
  publicDir: path.resolve(import.meta.dirname, 'packages/host/public'),
  plugins: [react(), examplePlugins(), startupChunk(), precompress()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 500,
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
});
