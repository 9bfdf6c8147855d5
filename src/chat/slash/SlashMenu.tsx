import { useActorRef, useSelector } from '@xstate/react';
import { type KeyboardEvent, type RefObject, useEffect, useLayoutEffect } from 'react';
import { matchesOf } from '../../../machines/slashMenu';
import { useActors } from '../../app/ActorsContext';
import { promptMachinesOf } from '../../app/promptActors';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { PlaceholderDialog } from './PlaceholderDialog';
import './slash.css';

/** The keys that move the highlight. */
const arrows: Record<string, 'DOWN' | 'UP' | undefined> = { ArrowDown: 'DOWN', ArrowUp: 'UP' };

/** What the message box says of the menu as a combobox: whether it is open, and the option highlighted. */
export interface ComboboxState {
  expanded: boolean;
  active: string | undefined;
}

interface SlashMenuProps {
  /** The message box's text. */
  text: string;
  /** The listbox's id, which the message box names in `aria-controls`. */
  listId: string;
  box: RefObject<HTMLTextAreaElement | null>;
  /** Filled in by the menu: the message box gives it each key first; true when the menu took it. */
  keys: RefObject<((event: KeyboardEvent<HTMLTextAreaElement>) => boolean) | null>;
  onCombobox: (state: ComboboxState) => void;
  /** A prompt's text (placeholders filled) for the message box; nothing is sent. */
  onInsert: (text: string) => void;
}

/**
 * The message box's `/` menu, loaded when a message first starts with `/`: the prompts matching what
 * follows it, ↑/↓ to move, Enter or Tab to pick, Escape to close (the text stays); a prompt with
 * placeholders asks for their values in a dialog first.
 */
export default function SlashMenu({ text, listId, box, keys, onCombobox, onInsert }: SlashMenuProps) {
  const t = useT();
  const { services } = useActors();
  const { inspect } = useWorkspace();
  const actor = useActorRef(promptMachinesOf(services.http).slashMenu, { inspect });
  const snapshot = useSelector(actor, (state) => state);
  const { highlighted, picked, missing, inserted, error } = snapshot.context;
  const shown = snapshot.hasTag('shown');
  const matches = matchesOf(snapshot.context);
  const optionId = (index: number) => `${listId}-${index}`;
  const active = shown && matches.length > 0 ? optionId(highlighted) : undefined;

  useEffect(() => {
    actor.send({ type: 'TYPE', text });
  }, [actor, text]);
  useLayoutEffect(() => {
    onCombobox({ expanded: shown, active });
  }, [onCombobox, shown, active]);
  // The highlighted option stays in view as the arrows move it.
  useLayoutEffect(() => {
    if (active) document.getElementById(active)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  useEffect(() => {
    if (inserted.count) onInsert(inserted.text);
  }, [inserted, onInsert]);
  useLayoutEffect(() => {
    keys.current = (event) => {
      if (!shown || event.nativeEvent.isComposing) return false;
      const move = arrows[event.key];
      if (move) {
        actor.send({ type: move });
        return true;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && active) {
        actor.send({ type: 'PICK' });
        return true;
      }
      if (event.key === 'Escape') {
        actor.send({ type: 'CLOSE' });
        return true;
      }
      return false;
    };
    return () => {
      keys.current = null;
    };
  }, [keys, actor, shown, active]);

  return (
    <>
      {shown && (
        <div className="slash-menu">
          <div id={listId} role="listbox" aria-label={t('Prompts')} className="slash-options">
            {matches.map((prompt, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the message box's keys pick options (aria-activedescendant)
              // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the message box, which names the active option
              <div
                key={prompt._id}
                id={optionId(index)}
                role="option"
                aria-selected={index === highlighted}
                // The message box keeps the focus: a click picks without taking it.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => actor.send({ type: 'CHOOSE', id: prompt._id })}
              >
                <code dir="auto">/{prompt.command}</code> <Bdi text={prompt.title} />
              </div>
            ))}
          </div>
          {snapshot.matches('loading') && (
            <p role="status" className="muted">
              <T>Loading your prompts…</T>
            </p>
          )}
          {snapshot.matches('open') && matches.length === 0 && (
            <p role="status" className="muted">
              {snapshot.context.prompts.length ? (
                <T>No prompt has this command.</T>
              ) : (
                <T>No prompts yet: add them in Profile → Prompts.</T>
              )}{' '}
              <T>Escape closes this list.</T>
            </p>
          )}
          {snapshot.matches('failed') && (
            <div role="alert" className="problem">
              <p>{t(error ?? 'Something went wrong')}</p>
              <button
                type="button"
                className="button small"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => actor.send({ type: 'RETRY' })}
              >
                <T>Retry</T>
              </button>
            </div>
          )}
        </div>
      )}
      {snapshot.matches('asking') && picked && (
        <PlaceholderDialog
          prompt={picked}
          missing={missing}
          returnFocus={box}
          onFill={(values) => actor.send({ type: 'FILL', values })}
          onCancel={() => actor.send({ type: 'CANCEL' })}
        />
      )}
    </>
  );
}
