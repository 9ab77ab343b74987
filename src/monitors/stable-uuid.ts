import { createHash } from 'node:crypto';

/**
 * A UUID that is a function of `name` (version-4 shaped, from SHA-256): what an activity derives
 * for something it creates, so every attempt names the same thing and a retry creates nothing new.
 */
export function stableUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
