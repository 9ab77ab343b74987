/**
 * The go-trafilatura peer of `npm run bench content`: builds ./go-trafilatura (our own small Go
 * program) into the cache directory, rebuilding only when its sources change, and keeps one
 * process running for all pages. The process times each extraction itself, so the JSON round
 * trip over its pipes is not counted.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CACHE_DIR } from '../../../src/config/paths';

const SOURCE = path.join(__dirname, 'go-trafilatura');
const OUT_DIR = path.join(CACHE_DIR, 'go-trafilatura');
const BINARY = path.join(OUT_DIR, 'go-trafilatura');
const STAMP = path.join(OUT_DIR, 'source.sha256');
/** The first build downloads modules and compiles a WebAssembly regex engine: minutes, not hours. */
const BUILD_TIMEOUT_MS = 15 * 60_000;

export interface GoExtraction {
  text: string;
  ms: number;
}

export interface GoTrafilatura {
  pid: number;
  extract(id: string, url: string, html: Buffer): Promise<GoExtraction>;
  close(): void;
}

/** Builds the binary unless the one in the cache was built from the same sources; returns why not, if it could not. */
function build(): string | undefined {
  const hash = createHash('sha256');
  for (const file of ['main.go', 'go.mod', 'go.sum']) hash.update(readFileSync(path.join(SOURCE, file)));
  const digest = hash.digest('hex');
  if (existsSync(BINARY) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest) return undefined;
  mkdirSync(OUT_DIR, { recursive: true });
  const result = spawnSync('go', ['build', '-o', BINARY, '.'], { cwd: SOURCE, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS });
  if (result.error) return result.error.message;
  if (result.status !== 0) return (result.stderr.trim().split('\n').pop() ?? '') || `go build exited with ${result.status}`;
  writeFileSync(STAMP, digest);
  return undefined;
}

/** Starts the peer, or says why it did not build. */
export function startGoTrafilatura(): GoTrafilatura | { error: string } {
  const error = build();
  if (error) return { error };
  const child: ChildProcessWithoutNullStreams = spawn(BINARY, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  // Pages go one at a time, so at most one answer is awaited.
  let pending: { resolve(e: GoExtraction): void; reject(err: Error): void } | undefined;
  let exited: Error | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as { text: string; ms: number; error?: string };
    const waiting = pending;
    pending = undefined;
    if (answer.error) waiting?.reject(new Error(answer.error));
    else waiting?.resolve({ text: answer.text, ms: answer.ms });
  });
  const fail = (err: Error) => {
    exited ??= err;
    pending?.reject(exited);
    pending = undefined;
  };
  child.on('exit', (code, signal) => fail(new Error(`go-trafilatura exited (${signal ?? code}): ${stderr.trim().split('\n').pop() ?? ''}`)));
  child.on('error', fail);
  child.stdin.on('error', () => undefined); // a write after the process died: its exit already failed the page
  return {
    pid: child.pid!,
    extract(id, url, html) {
      if (exited) return Promise.reject(exited);
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        child.stdin.write(`${JSON.stringify({ id, url, html: html.toString('base64') })}\n`);
      });
    },
    close() {
      child.stdin.end();
    },
  };
}
