import { useSelector } from '@xstate/react';
import { type ThemeChoice as Choice, themeChoices } from '../../../machines/theme';
import { useWorkspace } from '../../app/useWorkspace';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

const labels: Record<Choice, string> = { light: 'Light', dark: 'Dark', system: 'System' };

/** Light, dark, or as the system prefers: applied at once and kept for the next visit. */
export function ThemeChoice() {
  const { theme } = useWorkspace();
  const t = useT();
  const current = useSelector(theme, (snapshot) => snapshot.value);
  return (
    <fieldset className="panel-section theme-choice">
      <legend>
        <T>Appearance</T>
      </legend>
      {themeChoices.map((choice) => (
        <label key={choice} className="choice">
          <input
            type="radio"
            name="theme"
            value={choice}
            checked={current === choice}
            onChange={() => theme.send({ type: 'CHOOSE', choice })}
          />
          {t(labels[choice])}
        </label>
      ))}
    </fieldset>
  );
}
