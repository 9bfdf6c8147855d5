import { useSelector } from '@xstate/react';
import { Link, useLocation } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { useT } from '../i18n/useT';
import { sectionsFor } from './sections';

/** The admin area's sections; the one on screen is marked as the current page. */
export function AdminNav() {
  const t = useT();
  const [location] = useLocation();
  const { session } = useActors();
  const owner = useSelector(session, (snapshot) => snapshot.context.user?.role === 'owner');
  const current = (href: string) =>
    href === '/admin'
      ? location === '/admin' || location.startsWith('/admin/bots')
      : location.startsWith(href);
  return (
    <nav className="admin-nav" aria-label={t('Admin')}>
      <ul>
        {sectionsFor(owner).map((section) => (
          <li key={section.href}>
            <Link href={section.href} aria-current={current(section.href) ? 'page' : undefined}>
              {t(section.label)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
