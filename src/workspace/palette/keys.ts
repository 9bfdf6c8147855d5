/**
 * The app's keyboard shortcuts: what a key press asks for. Loaded with every logged-in screen, so it
 * stays tiny; the dialogs they open load on first use.
 *
 * Chosen not to clash: Ctrl+K / ⌘K and Ctrl+/ / ⌘/ are what web apps use for a palette and a list of
 * keys; the rest are Alt+Shift+letter (⌥⇧ on macOS, read by the key's place, since ⌥ changes the
 * letter there), which no browser nor screen reader (NVDA, JAWS, Narrator and Orca use Insert or Caps
 * Lock, VoiceOver Ctrl+⌥) takes. `?` works only outside a text field.
 */
export type Command = 'palette' | 'shortcuts' | 'newChat' | 'messageBox' | 'stop' | 'copyReply' | 'sidebar';

/** The Alt+Shift shortcuts by the key's code (its place on the keyboard, whatever the layout prints). */
export const altShiftKeys = {
  KeyN: 'newChat',
  KeyM: 'messageBox',
  KeyX: 'stop',
  KeyC: 'copyReply',
  KeyS: 'sidebar',
} as const satisfies Record<string, Command>;

/** macOS names the modifier ⌘ (and the shortcuts use it where others use Ctrl). */
export const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** A field that takes typing, where `?` is a character (a checkbox or a file picker is none). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    /^(TEXTAREA|SELECT)$/.test(target.tagName) ||
    (target instanceof HTMLInputElement &&
      /^(text|search|email|password|url|tel|number)$/.test(target.type)));

/** The command a key press asks for, if it is a shortcut. */
export function commandOf(event: KeyboardEvent, mac: boolean): Command | null {
  const { key, code, altKey, shiftKey, ctrlKey, metaKey } = event;
  const primary = mac ? metaKey && !ctrlKey : ctrlKey && !metaKey;
  if (primary && !altKey && !shiftKey && key.toLowerCase() === 'k') return 'palette';
  if (primary && !altKey && (key === '/' || code === 'Slash')) return 'shortcuts';
  if (key === '?' && !ctrlKey && !metaKey && !altKey && !typing(event.target)) return 'shortcuts';
  if (altKey && shiftKey && !ctrlKey && !metaKey)
    return altShiftKeys[code as keyof typeof altShiftKeys] ?? null;
  return null;
}
