import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../config/paths';

/**
 * The `ENV` of the Dockerfile's last stage (the image the services run in), `NAME=value` pairs
 * joined across continuation lines: what every container starts with before compose adds its own.
 */
export function imageEnv(file = path.join(ROOT, 'Dockerfile')): Record<string, string> {
  const text = readFileSync(file, 'utf8').replace(/\\\n/g, ' ');
  const lastStage = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of lastStage.split('\n')) {
    const instruction = /^ENV\s+(.*)$/.exec(line.trim());
    if (!instruction) continue;
    for (const pair of instruction[1]!.trim().split(/\s+/)) {
      const eq = pair.indexOf('=');
      if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1).replace(/^"(.*)"$/, '$1');
    }
  }
  return env;
}
