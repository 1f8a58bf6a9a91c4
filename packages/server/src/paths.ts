import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so that commands work from any directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEFAULT_WEB_DIST = path.join(REPO_ROOT, 'dist', 'web');
export const CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'atrium');
