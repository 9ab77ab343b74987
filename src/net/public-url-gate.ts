import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { AppError } from '../errors';
import { isPublicAddress } from './address-policy';
import { isAllowlisted, type HostAllowlist } from './host-allowlist';

export type LookupAddress = { address: string; family: number };

function blocked(what: string): AppError {
  return new AppError('URL_BLOCKED', `${what} is not a public address; only public http(s) URLs can be fetched`);
}

export function defaultPort(protocol: string): number {
  return protocol === 'https:' || protocol === 'wss:' ? 443 : 80;
}

/**
 * The one place that decides whether a connection may be opened. Every fetch path (undici,
 * the Chromium proxy) connects through `lookupFor`, so the addresses checked are the addresses
 * connected to: there is no window between the check and the connect for DNS rebinding.
 */
export class PublicUrlGate {
  constructor(private readonly allowlist: HostAllowlist) {}

  /** Whether a connection to `address` (already resolved from `host`) on `port` may be opened. */
  permits(host: string, address: string, port: number): boolean {
    return isPublicAddress(address) || isAllowlisted(this.allowlist, host, port) || isAllowlisted(this.allowlist, address, port);
  }

  /**
   * Parses a URL and refuses what can be refused without DNS: other schemes, credentials-free
   * IP literals in refused ranges (WHATWG parsing has already turned decimal, octal and hex
   * IPv4 forms into dotted quads).
   */
  parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('BAD_REQUEST', `"${raw}" is not a valid URL`, [{ path: 'url', message: 'Invalid URL' }]);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new AppError('URL_BLOCKED', `The ${url.protocol.slice(0, -1)} scheme is not allowed; only http and https URLs can be fetched`);
    }
    this.assertLiteral(url.hostname, Number(url.port) || defaultPort(url.protocol));
    return url;
  }

  /** Refuses a host that is an IP literal in a refused range; names pass to the lookup. */
  assertLiteral(hostname: string, port: number): void {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) && !this.permits(host, host, port)) throw blocked(hostname);
  }

  /** Resolves `hostname` and checks every address it has; used for early, friendly errors. */
  async resolve(hostname: string, port: number): Promise<LookupAddress[]> {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host)) {
      this.assertLiteral(host, port);
      return [{ address: host, family: isIP(host) }];
    }
    let addresses: LookupAddress[];
    try {
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch (cause) {
      throw new AppError('SCRAPE_DNS_RESOLUTION_ERROR', `Could not resolve host ${hostname}`, undefined, { cause });
    }
    const refused = addresses.find((a) => !this.permits(host, a.address, port));
    if (refused) throw blocked(`${hostname} (${refused.address})`);
    return addresses;
  }

  /**
   * A `lookup` for net/tls.connect that refuses the connection unless every address the name
   * resolves to is permitted. IP literals never reach a lookup, so callers check them with
   * `assertLiteral` first.
   */
  lookupFor(port: number): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname, port).then(
        (addresses) => {
          const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
          const list = wanted.length > 0 ? wanted : addresses;
          if (options.all) callback(null, list);
          else callback(null, list[0]!.address, list[0]!.family);
        },
        (err: Error) => callback(err as NodeJS.ErrnoException, '', 0),
      );
    };
  }
}
