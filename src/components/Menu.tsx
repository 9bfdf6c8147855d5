import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Icon } from './Icon';

const entriesOf = (root: HTMLElement | null) => [
  ...(root?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];

export interface MenuItem {
  label: string;
  onSelect: () => void;
}

/**
 * A menu button: the menu opens below it, arrow keys move between its items, Escape or a click
 * elsewhere closes it, and choosing an item gives focus back to the button (so a dialog the item
 * opens returns focus there too).
 */
export function Menu({
  label,
  items,
  shown = false,
}: {
  label: string;
  items: MenuItem[];
  /** The button shows its label as text (a small button) instead of the "more" icon. */
  shown?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    entriesOf(root.current)[0]?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const all = entriesOf(root.current);
    const index = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: all.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      all.at(moves[event.key] % all.length)?.focus();
    } else if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div className="menu" ref={root}>
      <button
        ref={button}
        type="button"
        className={shown ? 'button small ghost' : 'icon-button'}
        aria-label={shown ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
      >
        {shown ? label : <Icon name="more" />}
      </button>
      {open && (
        <div id={id} className="menu-list" role="menu" aria-label={label} tabIndex={-1} onKeyDown={onKeyDown}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                close();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
