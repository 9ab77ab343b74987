import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Queryable, Tx } from '../db/client';
import { preparedPerDb } from '../db/prepared-per-db';
import { ledger, teams } from '../db/schema';
import { recordCharge } from '../metrics/page-metrics';

export interface CreditMovement {
  teamId: string;
  /** Credits moved; always positive, the direction comes from the function called. */
  amount: number;
  operation: string;
  jobId?: string;
  /** Unique per real-world event; a second movement with the same key does nothing. */
  idempotencyKey: string;
}

/** A movement as a statement takes it: its values, or placeholders for them (db/built-once.ts). */
interface MovementParams {
  teamId: unknown;
  /** Signed: negative takes credits. */
  amount: unknown;
  operation: unknown;
  jobId: unknown;
  idempotencyKey: unknown;
}

const signed = (m: CreditMovement, sign: 1 | -1): MovementParams => ({
  teamId: m.teamId,
  amount: sign * m.amount,
  operation: m.operation,
  jobId: m.jobId ?? null,
  idempotencyKey: m.idempotencyKey,
});

/**
 * The ledger row and the balance it moves, as two CTEs (`entry`, `balance`) for a statement's
 * WITH; `onlyIf`, a condition on the statement's earlier CTEs, gates both.
 */
function movementCtes(m: MovementParams, onlyIf?: SQL): SQL {
  return sql`
    entry as (
      insert into ${ledger} (team_id, amount, operation, job_id, idempotency_key)
      select ${m.teamId}::uuid, ${m.amount}::int, ${m.operation}, ${m.jobId}::uuid, ${m.idempotencyKey}
      ${onlyIf ? sql`where ${onlyIf}` : sql``}
      on conflict (idempotency_key) do nothing
      returning amount
    ),
    balance as (
      update ${teams} set credits = credits + (select amount from entry) where id = ${m.teamId}::uuid and exists (select 1 from entry)
    )`;
}

/** One statement: the ledger row and the balance it moves, so a team's hot balance row is held briefly. */
function movement(m: CreditMovement, sign: 1 | -1): SQL {
  return sql`with ${movementCtes(signed(m, sign))} select count(*)::int as moved from entry`;
}

async function move(tx: Queryable, m: CreditMovement, sign: 1 | -1): Promise<boolean> {
  const [row] = await tx.execute<{ moved: number }>(movement(m, sign));
  return (row?.moved ?? 0) > 0;
}

/**
 * Takes credits, once per idempotency key. Call inside the transaction that stores what the
 * credits pay for. Returns false when this charge was already made.
 */
export async function charge(tx: Tx, m: CreditMovement): Promise<boolean> {
  const moved = m.amount > 0 && (await move(tx, m, -1));
  if (moved) recordCharge(m.operation, m.amount);
  return moved;
}

/** The statement of `charge`, for a transaction that sends it itself; null when there is nothing to take. */
export function chargeStatement(m: CreditMovement): SQL | null {
  return m.amount > 0 ? movement(m, -1) : null;
}

const CHARGE_PLACEHOLDERS: MovementParams = {
  teamId: sql.placeholder('chargeTeamId'),
  amount: sql.placeholder('chargeAmount'),
  operation: sql.placeholder('chargeOperation'),
  jobId: sql.placeholder('chargeJobId'),
  idempotencyKey: sql.placeholder('chargeKey'),
};

/**
 * A charge as CTEs (`entry`, `balance`) for the WITH of a statement that writes what the credits
 * pay for, taken only when `onlyIf` holds; its values are placeholders, filled by `chargeValues`.
 */
export function chargeCtes(onlyIf: SQL): SQL {
  return movementCtes(CHARGE_PLACEHOLDERS, onlyIf);
}

/** The values of `chargeCtes`'s placeholders for a charge of `m`. */
export function chargeValues(m: CreditMovement): Record<string, unknown> {
  const p = signed(m, -1);
  return { chargeTeamId: p.teamId, chargeAmount: p.amount, chargeOperation: p.operation, chargeJobId: p.jobId, chargeKey: p.idempotencyKey };
}

/** Adds credits, once per idempotency key. */
export function grant(db: Db, m: CreditMovement): Promise<boolean> {
  return db.transaction((tx) => move(tx, m, 1));
}

const balanceQuery = preparedPerDb((db) =>
  db
    .select({ credits: teams.credits })
    .from(teams)
    .where(eq(teams.id, sql.placeholder('teamId')))
    .prepare('credit_balance'),
);

export async function creditBalance(db: Db, teamId: string): Promise<number> {
  const [row] = await balanceQuery(db).execute({ teamId });
  return row?.credits ?? 0;
}
