import os from 'node:os';
import path from 'node:path';

/** The repository root (this file lives in src/config). */
export const ROOT = path.resolve(__dirname, '..', '..');

/** Machine-wide cache for things worth keeping across clones: the Temporal CLI, browsers. */
export const CACHE_DIR = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'web-context-service');
