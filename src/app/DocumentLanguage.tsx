import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { textDirection } from '../i18n/languages';
import { useActors } from './ActorsContext';

/** Keeps `<html lang dir>` in step with the display language, so right-to-left languages read right. */
export function DocumentLanguage() {
  const { language } = useActors();
  const code = useSelector(language, (snapshot) => snapshot.context.language);
  useEffect(() => {
    document.documentElement.lang = code;
    document.documentElement.dir = textDirection(code);
  }, [code]);
  return null;
}
