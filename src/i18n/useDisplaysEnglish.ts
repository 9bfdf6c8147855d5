import { useSelector } from '@xstate/react';
import { sourceLanguage } from '../../machines/translation';
import { useActors } from '../app/ActorsContext';

/** Whether the display language is English, which is never translated. */
export function useDisplaysEnglish(): boolean {
  const { translation } = useActors();
  return useSelector(
    translation,
    (snapshot) => snapshot.context.language.split('-')[0].toLowerCase() === sourceLanguage,
  );
}
