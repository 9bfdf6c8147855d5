import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { notify } from '../notifications/notify';

/** Below this after a charge, the user is told their balance is low. */
export const lowBalance = 1;

export const insufficientBalance = () => new ApiError(402, 'Insufficient balance', 'INSUFFICIENT_BALANCE');

/**
 * Charges the user inside the caller's transaction and records it; the balance never goes below
 * zero (the update only matches a balance that can pay). Returns the new balance.
 */
export async function chargeUser(
  tx: Db,
  charge: { tenant: string; userId: string; amount: number; description: string },
): Promise<{ balance: number }> {
  const { rows } = await tx.query<{ balance: string }>(
    'update users set balance = balance - $3 where id = $1 and tenant = $2 and balance >= $3 returning balance',
    [charge.userId, charge.tenant, charge.amount],
  );
  if (!rows.length) throw insufficientBalance();
  const balance = Number(rows[0].balance);
  if (charge.amount > 0) {
    await tx.query(
      'insert into transactions (tenant, user_id, amount, description) values ($1, $2, $3, $4)',
      [charge.tenant, charge.userId, -charge.amount, charge.description],
    );
    if (balance < lowBalance && balance + charge.amount >= lowBalance) {
      await notify(tx, {
        tenant: charge.tenant,
        userId: charge.userId,
        title: 'Your balance is low',
        body: 'Your balance is under 1.00. Replies from paid bots stop when it runs out.',
      });
    }
  }
  return { balance };
}
