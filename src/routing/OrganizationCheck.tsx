import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useActors } from '../app/ActorsContext';
import { AppHeader } from '../components/AppHeader';
import { Loading } from '../components/Loading';

/**
 * Lets the route through once the host's organization is known (seed-spec §4). A failed lookup
 * blocks navigation with no user message (§8): only the header remains.
 */
export function OrganizationCheck({ children }: { children: ReactNode }) {
  const { organization } = useActors();
  const status = useSelector(organization, (snapshot) =>
    snapshot.matches('allowed') ? 'allowed' : snapshot.matches('blocked') ? 'blocked' : 'checking',
  );
  if (status === 'allowed') return children;
  if (status === 'blocked') return <AppHeader />;
  return <Loading />;
}
