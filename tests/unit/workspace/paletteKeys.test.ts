import { describe, expect, it } from 'vitest';
import { commandOf } from '../../../src/workspace/palette/keys';
import { filterGroups, type PaletteGroup } from '../../../src/workspace/palette/options';

let mac = false;
/** The command a key pressed on `target` asks for, on a Mac or not (`mac`). */
const press = (init: KeyboardEventInit, target: HTMLElement = document.body) => {
  let command: ReturnType<typeof commandOf> | undefined;
  target.addEventListener('keydown', (event) => (command = commandOf(event, mac)), { once: true });
  target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, ...init }));
  return command;
};

describe('keyboard shortcuts', () => {
  it('opens the palette with Ctrl+K, or ⌘K on macOS, and nothing else like it', () => {
    mac = false;
    expect(press({ key: 'k', ctrlKey: true })).toBe('palette');
    expect(press({ key: 'K', ctrlKey: true })).toBe('palette');
    expect(press({ key: 'k', metaKey: true })).toBeNull();
    expect(press({ key: 'k', ctrlKey: true, shiftKey: true })).toBeNull();
    mac = true;
    expect(press({ key: 'k', metaKey: true })).toBe('palette');
    expect(press({ key: 'k', ctrlKey: true })).toBeNull();
  });

  it('shows the shortcuts with Ctrl+/ anywhere and with ? outside a text field only', () => {
    mac = false;
    expect(press({ key: '/', code: 'Slash', ctrlKey: true })).toBe('shortcuts');
    expect(press({ key: '?', shiftKey: true })).toBe('shortcuts');
    const field = document.body.appendChild(document.createElement('textarea'));
    expect(press({ key: '?', shiftKey: true }, field)).toBeNull();
    expect(press({ key: '/', code: 'Slash', ctrlKey: true }, field)).toBe('shortcuts');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    document.body.appendChild(checkbox);
    expect(press({ key: '?', shiftKey: true }, checkbox)).toBe('shortcuts');
  });

  it('reads Alt+Shift (⌥⇧) letters by the key, whatever character macOS makes of them', () => {
    mac = true;
    expect(press({ key: 'ˆ', code: 'KeyN', altKey: true, shiftKey: true })).toBe('newChat');
    expect(press({ key: 'Ç', code: 'KeyC', altKey: true, shiftKey: true })).toBe('copyReply');
    expect(press({ key: 'N', code: 'KeyN', shiftKey: true })).toBeNull();
    expect(press({ key: 'n', code: 'KeyN', altKey: true, shiftKey: true, ctrlKey: true })).toBeNull();
    expect(press({ key: 'Q', code: 'KeyQ', altKey: true, shiftKey: true })).toBeNull();
  });
});

describe('the palette filter', () => {
  const option = (label: string, detail?: string) => ({ id: label, label, detail, run: () => {} });
  const groups: PaletteGroup[] = [
    { key: 'conversations', label: 'Conversations', options: [option('Trip to Lisbon')] },
    {
      key: 'bots',
      label: 'Bots',
      options: [option('ELIZA', 'A Rogerian psychotherapist'), option('Calculator')],
    },
    { key: 'actions', label: 'Actions', options: [option('Language: Français', 'French')] },
  ];

  it('keeps what has every word typed, in any case and without accents; the server matched the conversations', () => {
    expect(
      filterGroups(groups, 'rogerian ELIZA').map((group) => group.options.map((item) => item.label)),
    ).toEqual([['Trip to Lisbon'], ['ELIZA']]);
    expect(filterGroups(groups, 'francais').map((group) => group.key)).toEqual(['conversations', 'actions']);
    expect(filterGroups(groups, 'french').map((group) => group.key)).toEqual(['conversations', 'actions']);
  });

  it('leaves out a group with nothing that matches', () => {
    const noConversations = [{ ...groups[0], options: [] }, ...groups.slice(1)];
    expect(filterGroups(noConversations, 'xyzzy')).toEqual([]);
  });
});
