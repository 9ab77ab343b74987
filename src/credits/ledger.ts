import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable, Tx } from '../db/client';
import { ledger, teams } from '../db/schema';

export interface CreditMovement {
  teamId: string;
  /** Credits moved; always positive, the direction comes from the function called. */
  amount: number;
  operation: string;
  jobId?: string;
  /** Unique per real-world event; a second movement with the same key does nothing. */
  idempotencyKey: string;
}

async function move(tx: Queryable, m: CreditMovement, sign: 1 | -1): Promise<boolean> {
  const inserted = await tx
    .insert(ledger)
    .values({ teamId: m.teamId, amount: sign * m.amount, operation: m.operation, jobId: m.jobId, idempotencyKey: m.idempotencyKey })
    .onConflictDoNothing({ target: ledger.idempotencyKey })
    .returning({ id: ledger.id });
  if (inserted.length === 0) return false;
  await tx
    .update(teams)
    .set({ credits: sql`${teams.credits} + ${sign * m.amount}` })
    .where(eq(teams.id, m.teamId));
  return true;
}

/**
 * Takes credits, once per idempotency key. Call inside the transaction that stores what the
 * credits pay for. Returns false when this charge was already made.
 */
export function charge(tx: Tx, m: CreditMovement): Promise<boolean> {
  return m.amount > 0 ? move(tx, m, -1) : Promise.resolve(false);
}

/** Adds credits, once per idempotency key. */
export function grant(db: Db, m: CreditMovement): Promise<boolean> {
  return db.transaction((tx) => move(tx, m, 1));
}

export async function creditBalance(db: Db, teamId: string): Promise<number> {
  const [row] = await db.select({ credits: teams.credits }).from(teams).where(eq(teams.id, teamId));
  return row?.credits ?? 0;
}
