import { use } from 'react';
import { useActors } from '../app/ActorsContext';
import { type AdminActors, createAdminActors } from '../app/createAdminActors';
import type { AppActors } from '../app/createAppActors';

const started = new WeakMap<AppActors, Promise<AdminActors>>();

/** The app's admin actors, created once, the first time the admin area is shown. */
function loadAdmin(actors: AppActors) {
  let admin = started.get(actors);
  if (!admin) {
    admin = createAdminActors({ ...actors.services, session: actors.session });
    started.set(actors, admin);
  }
  return admin;
}

/** The admin area's actors; the first call suspends while they start, under the route's Suspense. */
export function useAdmin(): AdminActors {
  return use(loadAdmin(useActors()));
}
