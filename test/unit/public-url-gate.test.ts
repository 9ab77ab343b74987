import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors';
import { parseHostAllowlist } from '../../src/net/host-allowlist';
import { PublicUrlGate } from '../../src/net/public-url-gate';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).code;
  }
}

describe('PublicUrlGate.parse', () => {
  const gate = new PublicUrlGate(parseHostAllowlist('127.0.0.1:4599'));

  it('accepts public http(s) URLs and names (names are checked at connect time)', () => {
    expect(gate.parse('https://example.com/a?b=1').href).toBe('https://example.com/a?b=1');
    expect(gate.parse('http://8.8.8.8:8080/').host).toBe('8.8.8.8:8080');
    expect(gate.parse('http://[2606:4700:4700::1111]/').hostname).toBe('[2606:4700:4700::1111]');
    expect(gate.parse('http://localhost/').hostname).toBe('localhost');
  });

  it('refuses other schemes', () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'data:text/html,hi', 'javascript:alert(1)', 'ws://example.com/']) {
      expect(codeOf(() => gate.parse(url)), url).toBe('URL_BLOCKED');
    }
  });

  it('refuses private IP literals in every spelling the URL parser accepts', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://017700000001/',
      'http://127.1/',
      'http://0/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://169.254.169.254/',
      'http://[fd00:ec2::254]/',
      'http://100.64.0.1/',
      'http://[64:ff9b::7f00:1]/',
      'https://10.1.2.3:8443/',
    ]) {
      expect(codeOf(() => gate.parse(url)), url).toBe('URL_BLOCKED');
    }
  });

  it('lets allowlisted host:port through, and only on that port', () => {
    expect(gate.parse('http://127.0.0.1:4599/page').port).toBe('4599');
    expect(codeOf(() => gate.parse('http://127.0.0.1:4598/'))).toBe('URL_BLOCKED');
    expect(codeOf(() => gate.parse('http://2130706433:4599/'))).toBeUndefined();
  });

  it('answers BAD_REQUEST for what is not a URL', () => {
    expect(codeOf(() => gate.parse('not a url'))).toBe('BAD_REQUEST');
    expect(codeOf(() => gate.parse('http://'))).toBe('BAD_REQUEST');
  });
});

describe('PublicUrlGate.resolve', () => {
  const gate = new PublicUrlGate(parseHostAllowlist(''));

  it('refuses a name that resolves to a private address', async () => {
    await expect(gate.resolve('localhost', 80)).rejects.toMatchObject({ code: 'URL_BLOCKED' });
  });

  it('reports a name that does not resolve', async () => {
    await expect(gate.resolve('no-such-host.invalid', 80)).rejects.toMatchObject({ code: 'SCRAPE_DNS_RESOLUTION_ERROR' });
  });
});
