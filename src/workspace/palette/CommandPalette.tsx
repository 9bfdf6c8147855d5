import { useSelector } from '@xstate/react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { commandPaletteMachine } from '../../../machines/commandPalette';
import type { PaletteActors } from '../../app/paletteActors';
import { Dialog } from '../../components/Dialog';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { filterGroups } from './options';
import { usePaletteGroups } from './usePaletteGroups';

type Palette = ActorRefFrom<typeof commandPaletteMachine>;

/** Where ↑ ↓ Home End move the active option, among `count`; ↑ ↓ go round. */
function moved(key: string, active: number, count: number): number | null {
  if (key === 'ArrowDown') return (active + 1) % count;
  if (key === 'ArrowUp') return (active - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * The command palette (Ctrl+K): a combobox whose listbox holds the matching options by group, the
 * active one named by `aria-activedescendant` while focus stays in the box. ↑ ↓ Home End move, Enter
 * runs, Escape closes and focus goes back where it was. How many match is said in a live region.
 */
export function CommandPalette({
  palette,
  prompts,
}: {
  palette: Palette;
  prompts: PaletteActors['prompts'];
}) {
  const t = useT();
  const format = useFormat();
  const id = useId();
  const query = useSelector(palette, (snapshot) => snapshot.context.query);
  const searching = useSelector(
    palette,
    (snapshot) => snapshot.matches({ palette: 'debouncing' }) || snapshot.matches({ palette: 'searching' }),
  );
  const failed = useSelector(palette, (snapshot) => snapshot.matches({ palette: 'failed' }));
  const error = useSelector(palette, (snapshot) => snapshot.context.error);
  // Where focus goes when the palette closes: where it was, unless the option chosen says (a prompt: the message box).
  const returnTo = useRef<HTMLElement | null>(null);
  const all = usePaletteGroups(palette, prompts, returnTo);
  const groups = filterGroups(all, query.trim());
  const options = groups.flatMap((group) => group.options);
  const optionId = (key: string) => `${id}-${key}`;
  const [active, setActive] = useState(0);
  // A new list of matches starts at its first option.
  const shown = options.map((option) => option.id).join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the list of matches is the trigger
  useEffect(() => setActive(0), [shown]);
  const current = options[Math.min(active, options.length - 1)];
  useEffect(() => {
    if (current) document.getElementById(optionId(current.id))?.scrollIntoView({ block: 'nearest' });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const next = options.length ? moved(event.key, options.indexOf(current), options.length) : null;
    if (next !== null) {
      event.preventDefault();
      setActive(next);
    } else if (event.key === 'Enter' && current) {
      event.preventDefault();
      current.run();
    }
  };
  const count =
    options.length === 0
      ? t('Nothing matches.')
      : options.length === 1
        ? t('One result')
        : t('{count} results').replace('{count}', format.number(options.length));

  return (
    <Dialog
      title="Command palette"
      role="dialog"
      className="commands palette"
      returnFocus={returnTo}
      onClose={() => palette.send({ type: 'CLOSE' })}
    >
      <label htmlFor={`${id}-box`}>
        <T>Search conversations, bots and commands</T>
      </label>
      <input
        id={`${id}-box`}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={options.length ? `${id}-list` : undefined}
        aria-activedescendant={current ? optionId(current.id) : undefined}
        aria-describedby={`${id}-keys`}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => palette.send({ type: 'TYPE', query: event.target.value })}
        onKeyDown={onKeyDown}
      />
      <p id={`${id}-keys`} className="field-hint">
        <T>↑ ↓ choose, Enter runs, Esc closes.</T>
      </p>
      {searching && (
        <p className="palette-note">
          <T>Searching conversations…</T>
        </p>
      )}
      {failed && (
        <div className="error-box palette-note" role="alert">
          <span>{t(error ?? 'Could not search conversations.')}</span>
          <button type="button" className="button small" onClick={() => palette.send({ type: 'RETRY' })}>
            <T>Retry</T>
          </button>
        </div>
      )}
      <p className={options.length ? 'visually-hidden' : 'empty'} role="status">
        {searching ? '' : count}
      </p>
      {options.length > 0 && (
        <div id={`${id}-list`} role="listbox" aria-label={t('Results')} className="palette-list">
          {groups.map((group) => (
            // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options by role="group", not by fieldset
            <div key={group.key} role="group" aria-labelledby={`${id}-${group.key}`}>
              <div id={`${id}-${group.key}`} role="presentation" className="palette-group">
                {group.label}
              </div>
              {group.options.map((option) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the box's keys choose options (aria-activedescendant)
                // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the box, which names the active option
                <div
                  key={option.id}
                  id={optionId(option.id)}
                  role="option"
                  aria-selected={option === current}
                  className="palette-option"
                  onClick={option.run}
                  onMouseMove={() => setActive(options.indexOf(option))}
                >
                  <span className="palette-label" dir="auto">
                    {option.label}
                  </span>
                  {option.detail && (
                    <span className="palette-detail" dir="auto">
                      {option.detail}
                    </span>
                  )}
                </div>
              ))}
            </div>
          ))}
        </div>
      )}
    </Dialog>
  );
}
