import type { ReactNode } from 'react';
import { T } from '../i18n/T';
import { Brand } from './Brand';
import { LanguagePicker } from './LanguagePicker';

/** The bar on top of every screen: the brand, then the screen's own controls, then the language. */
export function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="app-header">
      <a className="skip-link" href="#main">
        <T>Skip to content</T>
      </a>
      <Brand />
      {children}
      <LanguagePicker />
    </header>
  );
}
