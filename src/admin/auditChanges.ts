import { roleLabels } from './members/roleLabels';

/** One field an audit entry changed: its value before, after, or both (a key absent on a side is left out). */
export interface AuditChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What an entry changed, field by field: a creation's fields as made, a removal's as they were, and of
 * a change only the fields whose value differs (a field only one side has shows that side alone).
 */
export function changesOf(before: unknown, after: unknown): AuditChange[] {
  const was = isRecord(before) ? before : {};
  const now = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(now), ...Object.keys(was)])];
  return fields.flatMap((field): AuditChange[] => {
    if (!(field in was)) return [{ field, after: now[field] }];
    if (!(field in now)) return [{ field, before: was[field] }];
    return JSON.stringify(was[field]) === JSON.stringify(now[field])
      ? []
      : [{ field, before: was[field], after: now[field] }];
  });
}

/** The fields of the audit log as their forms name them; a field not here shows its own name. */
export const fieldLabels: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  platform: 'Platform',
  engine: 'Engine',
  provider: 'Provider',
  model: 'Model',
  systemPrompt: 'System prompt',
  temperature: 'Temperature',
  vision: 'Sees images',
  contextTokens: 'Context size (tokens)',
  knowledge: 'Knowledge bases',
  tools: 'Tools',
  askFirst: 'Ask first',
  price: 'Price per reply',
  categories: 'Categories',
  groups: 'Groups',
  active: 'Active',
  position: 'Position',
  baseUrl: 'Base URL',
  apiKey: 'API key',
  email: 'Email',
  role: 'Role',
  status: 'Status',
  balance: 'Balance',
  amount: 'Amount',
  note: 'Note',
  brandColor: 'Brand colour',
  logo: 'Logo',
  defaultLanguage: 'Default language',
  currency: 'Currency',
  startingBalance: 'Starting balance',
  signup: 'Sign-up',
  allowedDomains: 'Allowed email domains',
  storageQuotaMb: 'Storage quota (MB)',
  apiAccess: 'API access',
  publicSharing: 'Public sharing',
  memory: 'Memory',
  memberBots: "Members' own bots",
  memberBotTools: "Tools for members' bots",
  members: 'Members',
  bots: 'Bots',
  botsChanged: 'Bots',
  monthlyBudget: 'Monthly budget per member',
  idpGroups: 'Identity provider groups',
  url: 'URL',
  token: 'Token',
  issuer: 'Issuer URL',
  clientId: 'Client ID',
  clientSecret: 'Client secret',
  scopes: 'Scopes',
  claims: 'Claims',
  label: 'Button label',
  required: 'SSO required',
  subdomain: 'Subdomain',
  owner: 'Owner',
  disabled: 'Disabled',
  documents: 'Documents',
  document: 'Document',
};

/** A field's name as its form shows it. */
export const fieldLabel = (field: string, t: (text: string) => string) =>
  Object.hasOwn(fieldLabels, field) ? t(fieldLabels[field]) : field;

/** Words the log stores for a member's role and status and a bot's platform, as the screens show them. */
export const valueLabels: Record<string, Record<string, string>> = {
  role: roleLabels,
  status: { active: 'Active', suspended: 'Suspended' },
  platform: { builtin: 'Built-in', openai: 'OpenAI-compatible' },
};

interface Readers {
  /** The names of the record ids of the entry (its `names`). */
  names: Record<string, string>;
  t: (text: string) => string;
  number: (value: number) => string;
}

/**
 * A value of `field` as a person reads it: a record's name instead of its id, yes or no, a number in
 * the display language, a list joined, a record by its name and anything else field by field.
 */
export function readableValue(value: unknown, field: string, readers: Readers): string {
  const { names, t, number } = readers;
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('Yes') : t('No');
  if (typeof value === 'number') return number(value);
  if (typeof value === 'string') {
    if (Object.hasOwn(names, value)) return names[value];
    const words = Object.hasOwn(valueLabels, field) ? valueLabels[field] : {};
    return Object.hasOwn(words, value) ? t(words[value]) : value;
  }
  if (Array.isArray(value))
    return value.length === 0
      ? t('None')
      : value.map((item) => readableValue(item, field, readers)).join(', ');
  if (isRecord(value)) {
    // A record named beside its id (a bot an MCP server's change touched).
    if (typeof value._id === 'string' && typeof value.name === 'string') return value.name;
    return Object.entries(value)
      .map(([key, item]) => `${fieldLabel(key, t)}: ${readableValue(item, key, readers)}`)
      .join(', ');
  }
  return String(value);
}
