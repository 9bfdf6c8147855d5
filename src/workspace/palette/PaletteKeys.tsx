import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { isMobileWidth } from '../../../machines/sidePanel';
import { useWorkspace } from '../../app/useWorkspace';
import { useT } from '../../i18n/useT';
import { type Command, commandOf, isMac } from './keys';

// The palette and the shortcuts dialog load on first use: most visits never open them.
const CommandDialogs = lazy(() => import('./CommandDialogs'));

/** A dialog asked for by a key; a new object each time, so asking again reopens it. */
export interface Asked {
  command: 'palette' | 'shortcuts';
}

/**
 * Whether an open dialog holds the keyboard: the shortcuts wait while one is open, but for the keys
 * that go from the palette to the shortcuts dialog and back.
 */
const heldByDialog = (command: Command) => {
  const dialog = document.querySelector('[aria-modal="true"]');
  return (
    !!dialog && !(dialog.classList.contains('commands') && (command === 'palette' || command === 'shortcuts'))
  );
};

/** The button the shortcut presses, if the screen shows it. */
const press = (button: HTMLElement | null | undefined) => {
  button?.click();
  return !!button;
};

/**
 * The keyboard shortcuts of every logged-in screen (keys.ts): Ctrl+K and `?` open their dialogs, the
 * rest act on the screen as its own controls do (they press them), and say so when there is nothing to
 * act on. Tiny on purpose: the dialogs' code loads when first asked for.
 */
export function PaletteKeys() {
  const { conversations } = useWorkspace();
  const [, navigate] = useLocation();
  const t = useT();
  const [asked, setAsked] = useState<Asked | null>(null);
  const [said, setSaid] = useState('');

  useEffect(() => {
    const mac = isMac();
    /** Does what the shortcut says; answers what to tell a screen reader when there was nothing to do. */
    const act = (command: Exclude<Command, 'palette' | 'shortcuts'>): string | null => {
      if (command === 'newChat') navigate('/list');
      if (command === 'messageBox') {
        const box = document.querySelector<HTMLTextAreaElement>('.composer textarea');
        box?.focus();
        return box ? null : 'Open a chat to write a message.';
      }
      if (command === 'stop')
        return press(document.querySelector('[data-shortcut="stop"]')) ? null : 'No reply is being written.';
      if (command === 'copyReply') {
        const actions = [...document.querySelectorAll('.message.bot .message-actions')].at(-1);
        return press(actions?.querySelector('button')) ? 'Reply copied.' : 'No reply to copy yet.';
      }
      if (command === 'sidebar') {
        if (isMobileWidth(window.innerWidth)) conversations.send({ type: 'OPEN_DRAWER' });
        else document.querySelector<HTMLInputElement>('#conversation-sidebar input[type="search"]')?.focus();
      }
      return null;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const command = commandOf(event, mac);
      if (!command || event.defaultPrevented || heldByDialog(command)) return;
      event.preventDefault();
      if (command === 'palette' || command === 'shortcuts') return setAsked({ command });
      // Emptied first, so that saying the same again is heard again.
      setSaid('');
      const message = act(command);
      if (message) requestAnimationFrame(() => setSaid(message));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navigate, conversations]);

  return (
    <>
      <p className="visually-hidden" role="status">
        {said && t(said)}
      </p>
      {asked && (
        <Suspense fallback={null}>
          <CommandDialogs asked={asked} />
        </Suspense>
      )}
    </>
  );
}
