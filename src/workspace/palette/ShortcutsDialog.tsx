import { Dialog } from '../../components/Dialog';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { altShiftKeys, type Command, isMac } from './keys';

/** What each shortcut does, as the dialog lists them. */
const actions: Record<Command, string> = {
  palette: 'Open the command palette',
  shortcuts: 'Show the keyboard shortcuts',
  newChat: 'New chat',
  messageBox: 'Go to the message box',
  stop: 'Stop the reply',
  copyReply: 'Copy the last reply',
  sidebar: 'Go to the conversations',
};

/** The keys of a shortcut, as this computer's keyboard names them (⌘ ⌥ ⇧ on macOS). */
function keysOf(command: Command, mac: boolean): string[][] {
  const primary = mac ? '⌘' : 'Ctrl';
  if (command === 'palette') return [[primary, 'K']];
  if (command === 'shortcuts') return [['?'], [primary, '/']];
  const code = Object.entries(altShiftKeys).find(([, named]) => named === command)?.[0] ?? '';
  return [[mac ? '⌥' : 'Alt', mac ? '⇧' : 'Shift', code.replace('Key', '')]];
}

/** The Keyboard shortcuts dialog (`?` or Ctrl+/): every key and what it does. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const mac = isMac();
  return (
    <Dialog
      title="Keyboard shortcuts"
      role="dialog"
      className="commands shortcuts scrolling"
      onClose={onClose}
    >
      <dl className="shortcut-list">
        {(Object.keys(actions) as Command[]).map((command) => (
          <div key={command}>
            <dt>{t(actions[command])}</dt>
            <dd>
              {keysOf(command, mac).map((keys, index) => (
                <span key={keys.join('+')}>
                  {index > 0 && ` ${t('or')} `}
                  {keys.map((key, at) => (
                    <span key={key}>
                      {at > 0 && '+'}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </span>
              ))}
            </dd>
          </div>
        ))}
      </dl>
      <div className="actions">
        <button type="button" className="button" onClick={onClose}>
          <T>Close</T>
        </button>
      </div>
    </Dialog>
  );
}
