import ipaddr from 'ipaddr.js';

/**
 * Cloud metadata endpoints. Every one of them already falls in a refused range; they are
 * listed so that the intent survives any change to the range table.
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192']);

/** IPv6 ranges whose address carries an IPv4 address that decides the verdict. */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = addr.range();
  const bytes = addr.toByteArray();
  if (range === 'ipv4Mapped' || range === 'rfc6052') return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  // ::a.b.c.d (IPv4-compatible, deprecated) parses as unicast; treat it like a mapped address.
  if (bytes.slice(0, 12).every((b) => b === 0)) return new ipaddr.IPv4(bytes.slice(12, 16));
  return null;
}

/**
 * True when the address is an ordinary public unicast address. Loopback, private, link-local,
 * CGNAT, unique-local, multicast, unspecified, broadcast, reserved and documentation ranges, and
 * IPv6 forms that embed any of those (mapped, NAT64, 6to4, IPv4-compatible) are refused, as is
 * Teredo, whose real endpoint cannot be known from the address.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const addr = ipaddr.parse(ip);
  if (METADATA_ADDRESSES.has(addr.toString())) return false;
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    const v4 = embeddedIPv4(v6);
    if (v4) return isPublicAddress(v4.toString());
    return v6.range() === 'unicast';
  }
  return addr.range() === 'unicast';
}
