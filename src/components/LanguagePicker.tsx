import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useActors } from '../app/ActorsContext';
import { languages } from '../i18n/languages';
import { T } from '../i18n/T';

/** Changing the language stores it and reloads the page (seed-spec §1). */
export function LanguagePicker() {
  const { language } = useActors();
  const current = useSelector(language, (snapshot) => snapshot.context.language);
  const id = useId();
  return (
    <div className="language-picker">
      <label htmlFor={id}>
        <T>Language</T>
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => language.send({ type: 'CHANGE', language: event.target.value })}
      >
        {languages.map((option) => (
          <option key={option.code} value={option.code} lang={option.code}>
            {option.name}
          </option>
        ))}
      </select>
    </div>
  );
}
