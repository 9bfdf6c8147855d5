import type { Db } from '../db/database';
import { notFound } from '../errors';
import type { Owner } from '../owner';

/** The user's balance, what replies in flight hold of it, the currency and the last 50 transactions. */
export async function readBilling(db: Db, owner: Owner) {
  const { rows } = await db.query<{ balance: string; reserved: string; currency: string }>(
    'select balance, reserved, currency from users where id = $1 and tenant = $2',
    [owner.userId, owner.tenant],
  );
  if (!rows[0]) throw notFound('User');
  const { rows: transactions } = await db.query<{
    id: string;
    amount: string;
    description: string;
    created_at: Date;
  }>(
    'select id, amount, description, created_at from transactions where user_id = $1 and tenant = $2 order by created_at desc limit 50',
    [owner.userId, owner.tenant],
  );
  return {
    balance: Number(rows[0].balance),
    reserved: Number(rows[0].reserved),
    currency: rows[0].currency,
    transactions: transactions.map((row) => ({
      _id: row.id,
      amount: Number(row.amount),
      description: row.description,
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}
