#!/usr/bin/env node
// Entry of `npm start`, `npm test`, `npm run bench`, `npm run chaos`, `npm run build`,
// `npm run cluster` and `npm run test:cluster`. Plain CommonJS with no dependencies, because its
// first job is to install them: it runs `npm install` (which follows package-lock.json) when
// node_modules is missing or was installed from another lock, then hands over to the TypeScript
// command through tsx. Not `npm ci`: it refuses a lock that lacks other platforms' optional
// packages, which registry mirrors often do not carry.
'use strict';
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { spawnSync, spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const stamp = path.join(root, 'node_modules', '.wcs-deps-stamp');
const commands = {
  start: 'start.ts',
  test: 'test.ts',
  bench: '../../test/bench/run.ts',
  chaos: '../../test/chaos/run.ts',
  build: 'build.ts',
  cluster: 'run-cluster.ts',
};

function dependencyHash() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) {
    const p = path.join(root, file);
    if (existsSync(p)) hash.update(readFileSync(p));
  }
  return hash.digest('hex');
}

function ensureDependencies() {
  const wanted = dependencyHash();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  console.log('[setup] installing npm dependencies...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('[setup] npm dependency installation failed');
    process.exit(result.status ?? 1);
  }
  // npm may rewrite the lock (adding other platforms' optional packages): stamp what it left.
  writeFileSync(stamp, dependencyHash());
}

const [command, ...args] = process.argv.slice(2);
if (!commands[command]) {
  console.error(`usage: bootstrap.cjs ${Object.keys(commands).join('|')} [args...]`);
  process.exit(2);
}
ensureDependencies();
const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, commands[command]), ...args], { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches the whole process group; the child decides how to stop, we wait for it.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
