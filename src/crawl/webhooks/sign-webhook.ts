import { createHmac } from 'node:crypto';

/** `sha256=<hex>`: the HMAC-SHA256 of the exact body bytes, keyed with the team's webhook secret. */
export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
