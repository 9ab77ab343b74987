import { isIP } from 'node:net';

/** `host` or `host:port` entries let through by ALLOW_PRIVATE_HOSTS (tests only). */
export interface HostAllowlist {
  readonly entries: ReadonlyArray<{ host: string; port: number | null }>;
}

function normaliseHost(host: string): string {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return isIP(h) === 6 ? new URL(`http://[${h}]/`).hostname.slice(1, -1) : h;
}

/** Parses `127.0.0.1:4599,localhost,[::1]:8080`; throws on a malformed entry. */
export function parseHostAllowlist(value: string): HostAllowlist {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(\[[^\]]+\]|[^:\s]+)(?::(\d{1,5}))?$/.exec(entry);
      const port = m?.[2] === undefined ? null : Number(m[2]);
      if (!m || (port !== null && (port < 1 || port > 65535))) {
        throw new Error(`"${entry}" is not a host or host:port entry`);
      }
      return { host: normaliseHost(m[1]!), port };
    });
  return { entries };
}

/** True when `host` (a name or an address) on `port` is listed. */
export function isAllowlisted(list: HostAllowlist, host: string, port: number): boolean {
  const h = normaliseHost(host);
  return list.entries.some((e) => e.host === h && (e.port === null || e.port === port));
}
