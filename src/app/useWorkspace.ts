import { use } from 'react';
import { useActors } from './ActorsContext';
import type { Workspace } from './createWorkspaceActors';

/** The logged-in actors; the first call suspends while their code loads, under the route's Suspense. */
export function useWorkspace(): Workspace {
  return use(useActors().workspace());
}
