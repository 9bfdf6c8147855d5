import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useActors } from '../app/ActorsContext';
import { AppHeader } from '../components/AppHeader';
import { LoadingPage } from '../components/LoadingPage';

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
  // Blocked: the header and an empty main, so the header's skip link still leads somewhere.
  if (status === 'blocked')
    return (
      <>
        <AppHeader />
        <main id="main" />
      </>
    );
  return <LoadingPage />;
}
