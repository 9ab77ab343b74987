import { describe, expect, it } from 'vitest';
import { isAllowlisted, parseHostAllowlist } from '../../src/net/host-allowlist';

describe('parseHostAllowlist', () => {
  it('is empty for an empty setting', () => {
    expect(parseHostAllowlist('').entries).toEqual([]);
    expect(parseHostAllowlist(' , ').entries).toEqual([]);
  });

  it('reads host and host:port entries, IPv6 in brackets, case-folded', () => {
    expect(parseHostAllowlist('127.0.0.1:4599, LocalHost ,[::1]:8080,[0:0:0:0:0:0:0:1],fixtures.test').entries).toEqual([
      { host: '127.0.0.1', port: 4599 },
      { host: 'localhost', port: null },
      { host: '::1', port: 8080 },
      { host: '::1', port: null },
      { host: 'fixtures.test', port: null },
    ]);
  });

  it('throws on a malformed entry, naming it', () => {
    for (const bad of ['127.0.0.1:0', 'host:70000', 'host:port', 'a b', '::1:80', 'http://host']) {
      expect(() => parseHostAllowlist(bad), bad).toThrow(`"${bad}" is not a host or host:port entry`);
    }
  });
});

describe('isAllowlisted', () => {
  const list = parseHostAllowlist('127.0.0.1:4599,fixtures.test,[::1]:8080');

  it('matches a host:port entry on that port only', () => {
    expect(isAllowlisted(list, '127.0.0.1', 4599)).toBe(true);
    expect(isAllowlisted(list, '127.0.0.1', 4600)).toBe(false);
    expect(isAllowlisted(list, '[::1]', 8080)).toBe(true);
    expect(isAllowlisted(list, '0:0::1', 8080)).toBe(true);
    expect(isAllowlisted(list, '::1', 80)).toBe(false);
  });

  it('matches a host entry on any port, by exact name', () => {
    expect(isAllowlisted(list, 'FIXTURES.test', 1)).toBe(true);
    expect(isAllowlisted(list, 'sub.fixtures.test', 80)).toBe(false);
    expect(isAllowlisted(list, 'localhost', 4599)).toBe(false);
  });
});
