import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../config/paths';

/** Where `npm start` records what it set up, so the CLI finds the same stack. */
export const RUNTIME_FILE = 'runtime.json';

export interface RuntimeInfo {
  databaseUrl?: string;
  temporalAddress?: string;
  apiUrl?: string;
}

function dataDir(): string {
  return path.resolve(ROOT, process.env.DATA_DIR ?? 'data');
}

/** What the running (or last) `npm start` recorded; empty when it never ran here. */
export function runtimeInfo(): RuntimeInfo {
  const file = path.join(dataDir(), RUNTIME_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo) : {};
}

/** DATABASE_URL, else the database `npm start` chose. */
export function cliDatabaseUrl(): string {
  const url = process.env.DATABASE_URL ?? runtimeInfo().databaseUrl;
  if (!url) throw new Error('Set DATABASE_URL, or run `npm start` first so the CLI can find its database');
  return url;
}

/** TEMPORAL_ADDRESS, else the server `npm start` used, else the default. */
export function cliTemporalAddress(): string {
  return process.env.TEMPORAL_ADDRESS ?? runtimeInfo().temporalAddress ?? '127.0.0.1:7233';
}

/** WCS_API_URL, else the API `npm start` runs, else the default. */
export function cliApiUrl(): string {
  return (process.env.WCS_API_URL ?? runtimeInfo().apiUrl ?? 'http://127.0.0.1:3002').replace(/\/+$/, '');
}

/** WCS_API_KEY, else the development key `npm start` created. */
export function cliApiKey(): string {
  if (process.env.WCS_API_KEY) return process.env.WCS_API_KEY;
  const file = path.join(dataDir(), 'dev-api-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new Error('Set WCS_API_KEY, or run `npm start` first so the CLI can use its development key');
}
