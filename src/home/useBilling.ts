import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useWorkspace } from '../app/useWorkspace';

/** The user's balance and transactions, loaded the first time a screen needs them. */
export function useBilling() {
  const { billing } = useWorkspace();
  const data = useSelector(billing, (snapshot) => snapshot.context.data);
  const failed = useSelector(billing, (snapshot) => snapshot.matches('failed'));
  useEffect(() => {
    billing.send({ type: 'LOAD' });
  }, [billing]);
  return { billing: data, failed, retry: () => billing.send({ type: 'RELOAD' }) };
}
