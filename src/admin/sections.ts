/** The admin area's sections, by address: its navigation and the command palette list them. */
export const adminSections = [
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

/** The sections a role may open: owners every one, admins all but the owners'. */
export const sectionsFor = (owner: boolean) => adminSections.filter((section) => owner || !section.owners);
