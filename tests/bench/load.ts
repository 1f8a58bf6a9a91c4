import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * Runs autocannon in a child process so that the load generator does not share the event loop of
 * the server under test. Returns requests per second and latency percentiles in milliseconds.
 */
export interface LoadResult {
  requestsPerSecond: number;
  /** Requests answered in the whole run. */
  requests: number;
  p50: number;
  p97_5: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const AUTOCANNON = path.resolve(import.meta.dirname, '../../node_modules/autocannon/autocannon.js');

export function runLoad(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '-c', String(options.connections), '-d', String(options.seconds)];
  for (const [key, value] of Object.entries(options.headers ?? {})) args.push('-H', `${key}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(output);
      resolve({
        requestsPerSecond: result.requests.average,
        requests: result.requests.total,
        p50: result.latency.p50,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        errors: result.errors,
        non2xx: result.non2xx,
      });
    });
  });
}

export const fmt = (value: number, digits = 1) => value.toFixed(digits);
