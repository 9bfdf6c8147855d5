import { useSelector } from '@xstate/react';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { LoadingPage } from '../components/LoadingPage';

/**
 * Asks the session machine for the login check on entry (seed-spec §4) and shows the route once
 * it allows it; a failed check is routed to landing with returnUrl by the machine.
 */
export function LoginCheck({ children }: { children: ReactNode }) {
  const { session } = useActors();
  const [location] = useLocation();
  const search = useSearch();
  // While logging out the page stays, its Log out button busy, until the session sends the user on.
  const allowed = useSelector(
    session,
    (snapshot) => snapshot.matches({ auth: 'loggedIn' }) || snapshot.matches({ auth: 'loggingOut' }),
  );

  useEffect(() => {
    if (!allowed) session.send({ type: 'CHECK', returnUrl: search ? `${location}?${search}` : location });
  }, [allowed, session, location, search]);

  return allowed ? children : <LoadingPage />;
}
