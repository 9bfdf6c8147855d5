import { useSelector } from '@xstate/react';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { Loading } from '../components/Loading';

/**
 * Asks the session machine for the login check on entry (seed-spec §4) and shows the route once
 * it allows it; a failed check is routed to landing with returnUrl by the machine.
 */
export function LoginCheck({ children }: { children: ReactNode }) {
  const { session } = useActors();
  const [location] = useLocation();
  const search = useSearch();
  const allowed = useSelector(session, (snapshot) => snapshot.matches({ auth: 'loggedIn' }));

  useEffect(() => {
    if (!allowed) session.send({ type: 'CHECK', returnUrl: search ? `${location}?${search}` : location });
  }, [allowed, session, location, search]);

  return allowed ? children : <Loading />;
}
