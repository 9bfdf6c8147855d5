import { useSelector } from '@xstate/react';
import { type FormEvent, useId, useState } from 'react';
import { useActors } from '../app/ActorsContext';
import { languages } from '../i18n/languages';
import { T } from '../i18n/T';

/**
 * Changing the language stores it and reloads the page (seed-spec §1), so it happens on an explicit
 * Apply, never while moving through the list with the arrow keys (WCAG 3.2.2).
 */
export function LanguagePicker() {
  const { language } = useActors();
  const current = useSelector(language, (snapshot) => snapshot.context.language);
  const [chosen, setChosen] = useState<string>(current);
  const id = useId();
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (chosen !== current) language.send({ type: 'CHANGE', language: chosen });
  };
  return (
    <form className="language-picker" onSubmit={apply}>
      <label htmlFor={id}>
        <T>Language</T>
      </label>
      <select id={id} value={chosen} onChange={(event) => setChosen(event.target.value)}>
        {languages.map((option) => (
          <option key={option.code} value={option.code} lang={option.code}>
            {option.name}
          </option>
        ))}
      </select>
      {chosen !== current && (
        <button type="submit" className="button small">
          <T>Apply</T>
        </button>
      )}
    </form>
  );
}
