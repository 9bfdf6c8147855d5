import { useSelector } from '@xstate/react';
import { isSourceLanguage } from '../../machines/translation';
import { useActors } from '../app/ActorsContext';

/** Whether the display language is English (a regional one too), which is never translated. */
export function useDisplaysEnglish(): boolean {
  const { translation } = useActors();
  return useSelector(translation, (snapshot) => isSourceLanguage(snapshot.context.language));
}
