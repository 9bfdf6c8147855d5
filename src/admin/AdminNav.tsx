import { useSelector } from '@xstate/react';
import { Link, useLocation } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { useT } from '../i18n/useT';

const sections = [
  { href: '/admin', label: 'Bots' },
  { href: '/admin/providers', label: 'Providers' },
  { href: '/admin/models', label: 'Models' },
  { href: '/admin/tools', label: 'Tools' },
  { href: '/admin/categories', label: 'Categories' },
  { href: '/admin/knowledge', label: 'Knowledge' },
  { href: '/admin/members', label: 'Members' },
  { href: '/admin/groups', label: 'Groups' },
  { href: '/admin/settings', label: 'Settings' },
  // Who may sign in and how: owners only (the server refuses admins).
  { href: '/admin/sign-in', label: 'Sign-in', owners: true },
  { href: '/admin/usage', label: 'Usage' },
  { href: '/admin/feedback', label: 'Feedback' },
  { href: '/admin/audit', label: 'Audit log' },
];

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
        {sections
          .filter((section) => owner || !section.owners)
          .map((section) => (
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
