import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/api';
import { wcs } from '../helpers/wcs-cli';

async function remaining(key: string): Promise<number | string> {
  const { status, body } = await api('/v1/team/credit-usage', { key });
  return status === 200 ? body.data.remaining_credits : `HTTP ${status} ${body.code}`;
}

describe('the wcs admin CLI', () => {
  it('creates a key that works, lists it, adds and shows credits, and revokes it', async () => {
    const team = `cli-${randomUUID().slice(0, 8)}`;

    const created = await wcs('keys', 'create', '--team', team, '--credits', '250');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const key = created.stdout.trim();
    expect(key).toMatch(/^wcs_[\w-]{32}$/);
    expect(await remaining(key)).toBe(250);

    const prefix = key.slice(0, 12);
    const listed = await wcs('keys', 'list');
    expect(listed.code).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(prefix));
    expect(line?.split('\t')).toEqual([prefix, team, expect.stringMatching(/^\d{4}-\d\d-\d\dT/), 'live']);
    expect(listed.stdout).not.toContain(key);

    expect(await wcs('credits', 'add', '--team', team, '50')).toMatchObject({ code: 0, stdout: `${team}: 300 credits\n` });
    expect(await wcs('credits', 'show', '--team', team)).toMatchObject({ code: 0, stdout: `${team}: 300 credits\n` });
    expect(await remaining(key)).toBe(300);

    expect(await wcs('keys', 'revoke', prefix)).toMatchObject({ code: 0, stdout: `revoked ${prefix}\n` });
    expect(await remaining(key)).toBe('HTTP 401 UNAUTHORIZED');
    expect((await wcs('keys', 'list')).stdout.split('\n').find((l) => l.startsWith(prefix))).toMatch(/\trevoked \d{4}-/);
  });

  it('gives a second key of the same team the same balance', async () => {
    const team = `cli-${randomUUID().slice(0, 8)}`;
    const first = (await wcs('keys', 'create', '--team', team, '--credits', '10')).stdout.trim();
    const second = (await wcs('keys', 'create', '--team', team)).stdout.trim();
    expect(second).not.toBe(first);
    expect(await remaining(second)).toBe(10);
  });

  it('exits 2 with the usage text on bad usage', async () => {
    const team = `cli-${randomUUID().slice(0, 8)}`;
    for (const args of [
      ['frobnicate'],
      ['keys', 'create'],
      ['keys', 'create', '--team', team, '--credits', 'lots'],
      ['keys', 'revoke'],
      ['credits', 'add', '--team', team, '5'],
      ['credits', 'show'],
    ]) {
      const run = await wcs(...args);
      expect({ args, code: run.code, usage: run.stderr.includes('wcs keys create --team <name> [--credits N]') }).toEqual({ args, code: 2, usage: true });
    }
  });

  it('prints the usage and exits 0 when asked for help', async () => {
    const run = await wcs('--help');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('wcs credits show --team <name>');
  });

  it('fails (exit 1) without revoking when a prefix matches no key', async () => {
    const run = await wcs('keys', 'revoke', 'wcs_doesnotexist');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No live key starts with "wcs_doesnotexist"');
  });
});
