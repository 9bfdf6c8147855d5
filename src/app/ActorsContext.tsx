import { createContext, type ReactNode, useContext } from 'react';
import type { AppActors } from './createAppActors';

const ActorsContext = createContext<AppActors | null>(null);

/** Hands the app's running actors to the screens below. */
export function ActorsProvider({ actors, children }: { actors: AppActors; children: ReactNode }) {
  return <ActorsContext.Provider value={actors}>{children}</ActorsContext.Provider>;
}

/** The app's actors: screens read their snapshots with `useSelector` and send them events. */
export function useActors(): AppActors {
  const actors = useContext(ActorsContext);
  if (!actors) throw new Error('useActors() needs an <ActorsProvider> above it');
  return actors;
}
