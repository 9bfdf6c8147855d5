import { useSelector } from '@xstate/react';
import { ActorsProvider, useActors } from './app/ActorsContext';
import { AlertHost } from './app/AlertHost';
import type { AppActors } from './app/createAppActors';
import { DocumentLanguage } from './app/DocumentLanguage';
import { RouteFocus } from './app/RouteFocus';
import { AppRoutes } from './routing/AppRoutes';

/** Paints once the language's cached translations are in memory: no flash of English. */
function WhenTranslationsReady() {
  const { translation, language } = useActors();
  const ready = useSelector(
    translation,
    (snapshot) => !snapshot.matches('deciding') && !snapshot.matches('preloading'),
  );
  const reloading = useSelector(language, (snapshot) => snapshot.matches('reloading'));
  if (!ready || reloading) return null;
  return (
    <>
      <DocumentLanguage />
      <AppRoutes />
      <RouteFocus />
      <AlertHost />
    </>
  );
}

export function App({ actors }: { actors: AppActors }) {
  return (
    <ActorsProvider actors={actors}>
      <WhenTranslationsReady />
    </ActorsProvider>
  );
}
