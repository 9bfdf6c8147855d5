import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../i18n/useT';
import { Icon } from './Icon';

/**
 * What the header shows on a wide screen and, on a narrow one, behind a Menu button (the CSS decides
 * which): its children are rendered once, so their names do not change with the width. Opened, focus
 * moves inside; Escape closes it and focus returns to the button; a click elsewhere closes it.
 */
export function HeaderMenu({ children }: { children: ReactNode }) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>(`#${CSS.escape(id)} select, #${CSS.escape(id)} button`)?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape, true);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape, true);
    };
  }, [open, id]);

  return (
    <div ref={root} className="header-menu" data-open={open}>
      <button
        ref={button}
        type="button"
        className="icon-button header-menu-button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <Icon name="more" />
        <span className="visually-hidden">{t('Menu')}</span>
      </button>
      <div id={id} className="header-menu-items">
        {children}
      </div>
    </div>
  );
}
