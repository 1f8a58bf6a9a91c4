#!/usr/bin/env node
// `npm start`: runs the built server (dist/server, scripts/build-server.mjs), building it first when
// it is missing or a source is newer, as the server itself does for the SPA. Arguments go to the
// server's command line (packages/server/src/cli.ts); `--no-build` skips both builds.
import { pathToFileURL } from 'node:url';
import { buildServer, serverBuildIsStale, SERVER_ENTRY } from './build-server.mjs';

if (!process.argv.includes('--no-build') && serverBuildIsStale()) {
  const ms = await buildServer();
  console.log(`server built in ${ms} ms`);
}
// Stack traces name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER_ENTRY).href);
