import { useSelector } from '@xstate/react';
import { type ReactNode, useEffect } from 'react';
import { useActors } from '../app/ActorsContext';
import { LoadingPage } from '../components/LoadingPage';
import { useAddress } from './address';

/**
 * Asks the session machine for the login check on entry (seed-spec §4) and shows the route once
 * it allows it; a failed check is routed to landing with returnUrl by the machine.
 */
export function LoginCheck({ children }: { children: ReactNode }) {
  const { session } = useActors();
  const address = useAddress();
  // While logging out the page stays, its Log out button busy, until the session sends the user on.
  const allowed = useSelector(
    session,
    (snapshot) => snapshot.matches({ auth: 'loggedIn' }) || snapshot.matches({ auth: 'loggingOut' }),
  );

  useEffect(() => {
    if (!allowed) session.send({ type: 'CHECK', returnUrl: address });
  }, [allowed, session, address]);

  return allowed ? children : <LoadingPage />;
}
