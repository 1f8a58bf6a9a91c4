// The mapping worker thread (mapping-pool.ts): evaluates one mapping at a time, so that a mapping
// that runs long holds this thread, never the server's event loop. Plain JavaScript: see
// jsonata-runtime.mjs.
import { parentPort } from 'node:worker_threads';
import { evaluateHere, MappingError } from './jsonata-runtime.mjs';

parentPort.on('message', async ({ id, expression, input, options }) => {
  try {
    const result = await evaluateHere(expression, input, options);
    parentPort.postMessage({ id, ok: true, result });
  } catch (error) {
    parentPort.postMessage({
      id,
      ok: false,
      mappingError: error instanceof MappingError,
      message: error instanceof Error ? error.message : String(error),
      position: error?.position,
    });
  }
});
