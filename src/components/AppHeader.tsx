import type { ReactNode } from 'react';
import { T } from '../i18n/T';
import { Brand } from './Brand';
import { HeaderMenu } from './HeaderMenu';
import { LanguagePicker } from './LanguagePicker';

interface AppHeaderProps {
  /** Before the brand: the button of the conversation drawer on a phone. */
  start?: ReactNode;
  /** After the brand: the screen's own controls. */
  children?: ReactNode;
}

/**
 * The bar on top of every screen: the brand, then the screen's own controls, then the language (behind
 * a Menu button on a phone).
 */
export function AppHeader({ start, children }: AppHeaderProps) {
  return (
    <header className="app-header">
      <a className="skip-link" href="#main">
        <T>Skip to content</T>
      </a>
      {start}
      <Brand />
      {children}
      <HeaderMenu>
        <LanguagePicker />
      </HeaderMenu>
    </header>
  );
}
