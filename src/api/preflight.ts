import { creditBalance } from '../credits/ledger';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { defaultPort, type PublicUrlGate } from '../net/public-url-gate';

/**
 * Refuses blocked and unresolvable URLs before any job exists (the worker checks again at
 * connect time), and answers the parsed URL.
 */
export async function checkTarget(gate: PublicUrlGate, url: string): Promise<URL> {
  const target = gate.parse(url);
  await gate.resolve(target.hostname, Number(target.port) || defaultPort(target.protocol));
  return target;
}

/** Refuses a request the team's balance cannot cover. */
export async function requireCredits(db: Db, teamId: string, needed: number, what: string): Promise<void> {
  const balance = await creditBalance(db, teamId);
  if (balance < needed) throw new AppError('INSUFFICIENT_CREDITS', `${what} needs ${needed} credit${needed === 1 ? '' : 's'}; the team has ${balance}`);
}
