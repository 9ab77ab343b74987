import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/net/address-policy';

describe('isPublicAddress', () => {
  it('accepts ordinary public unicast addresses', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e']) {
      expect({ ip, public: isPublicAddress(ip) }).toEqual({ ip, public: true });
    }
  });

  const refused: Record<string, string[]> = {
    'IPv4 loopback': ['127.0.0.1', '127.255.255.254'],
    'IPv4 private': ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1'],
    'IPv4 link-local and metadata': ['169.254.0.1', '169.254.169.254', '169.254.170.2'],
    'carrier-grade NAT (and Alibaba metadata)': ['100.64.0.1', '100.127.255.254', '100.100.100.200'],
    'unspecified, broadcast, "this network"': ['0.0.0.0', '0.1.2.3', '255.255.255.255'],
    'multicast and reserved': ['224.0.0.1', '239.255.255.250', '240.0.0.1'],
    'IETF protocol assignments and documentation': ['192.0.0.192', '192.0.0.8', '192.0.2.1', '198.51.100.1', '203.0.113.1', '198.18.0.1'],
    'IPv6 loopback and unspecified': ['::1', '::'],
    'IPv6 unique-local (and AWS metadata)': ['fc00::1', 'fd12:3456::1', 'fd00:ec2::254'],
    'IPv6 link-local and multicast': ['fe80::1', 'ff02::1'],
    'IPv6 documentation': ['2001:db8::1'],
    'IPv4-mapped private': ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:10.0.0.1'],
    'IPv4-compatible private': ['::127.0.0.1', '::a9fe:a9fe'],
    'NAT64 of private': ['64:ff9b::127.0.0.1', '64:ff9b::a00:1', '64:ff9b::a9fe:a9fe'],
    '6to4 of private': ['2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:c0a8:101::1'],
    Teredo: ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  };
  for (const [range, ips] of Object.entries(refused)) {
    it(`refuses ${range}`, () => {
      for (const ip of ips) expect({ ip, public: isPublicAddress(ip) }).toEqual({ ip, public: false });
    });
  }

  it('judges IPv6 forms that embed a public IPv4 address by that address', () => {
    for (const ip of ['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      expect({ ip, public: isPublicAddress(ip) }).toEqual({ ip, public: true });
    }
  });

  it('refuses what is not an address at all', () => {
    for (const ip of ['', 'localhost', '127.1', '2130706433', '0x7f000001', '[::1]', '1.2.3.4.5']) {
      expect({ ip, public: isPublicAddress(ip) }).toEqual({ ip, public: false });
    }
  });
});
