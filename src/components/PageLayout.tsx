import type { ReactNode } from 'react';
import { AppHeader } from './AppHeader';

/** The logged-out pages: the header, then one centred column. */
export function PageLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <AppHeader />
      <main id="main" className="page">
        {children}
      </main>
    </>
  );
}
