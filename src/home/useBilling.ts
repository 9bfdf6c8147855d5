import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { BillingInfo } from '../api/types';
import { useActors } from '../app/ActorsContext';

/** The user's balance and transactions, loaded the first time a screen needs them. */
export function useBilling() {
  const { billing } = useActors();
  const data = useSelector(billing, (snapshot) => snapshot.context.data as BillingInfo | null);
  const failed = useSelector(billing, (snapshot) => snapshot.matches('failed'));
  useEffect(() => {
    billing.send({ type: 'LOAD' });
  }, [billing]);
  return { billing: data, failed, retry: () => billing.send({ type: 'RELOAD' }) };
}
