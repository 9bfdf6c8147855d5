import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { StoredSearch } from '../search/store';

/** Labels an organization may not take: the app itself and names people expect to be the service's. */
export const reservedSubdomains = new Set([
  'app',
  'www',
  'api',
  'admin',
  'administrator',
  'mail',
  'smtp',
  'imap',
  'pop',
  'ftp',
  'static',
  'assets',
  'cdn',
  'status',
  'docs',
  'help',
  'support',
  'blog',
  'dev',
  'test',
  'staging',
  'localhost',
  'auth',
  'login',
  'signup',
  'account',
  'accounts',
  'billing',
  'payment',
  'payments',
  'root',
  'system',
  'parley',
  'health',
  'ready',
  'ns1',
  'ns2',
]);

/** A lowercase DNS label of 1–63 letters, digits and inner hyphens, not reserved; else why not. */
export function subdomainProblem(subdomain: string): string | null {
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(subdomain)) {
    return 'A subdomain is a lowercase DNS label: 1 to 63 letters a–z, digits and inner hyphens.';
  }
  if (/^xn--/.test(subdomain) || subdomain.slice(2, 4) === '--') {
    return 'A subdomain may not have two hyphens in its third and fourth places (punycode).';
  }
  if (reservedSubdomains.has(subdomain)) return `The subdomain “${subdomain}” is reserved.`;
  return null;
}

export interface OrganizationRow {
  id: string;
  subdomain: string;
  name: string;
  currency: string;
  disabled: boolean;
  brand_color: string | null;
  logo_type: string | null;
  logo_version: string | null;
  default_language: string;
  starting_balance: string | null;
  signup: 'open' | 'invite' | 'domains';
  allowed_domains: string[];
  storage_quota_mb: number;
  /** Whether members' personal keys may call Parley's OpenAI-compatible API. */
  api_access: boolean;
  /** Whether conversations may be shared with anyone (public links). */
  public_sharing: boolean;
  /** Whether members' memories are saved and given to replies (kept either way). */
  memory: boolean;
  /** Whether members may make their own bots, and the tools they may give them. */
  member_bots: boolean;
  member_bot_tools: string[];
  /** Its search engine for `web_search` (the Brave key sealed); null: none. */
  search: StoredSearch | null;
  /** Image generation: `{ provider, model, price }`, null while not configured. */
  images: { provider: string | null; model: string; price: number } | null;
  /** Voice (`server/audio/settings.ts` reads it); null: not configured. */
  speech: Record<string, unknown> | null;
  created_at: Date;
}

export const organizationColumns = `id, subdomain, name, currency, disabled, brand_color, logo_type, logo_version,
  default_language, starting_balance, signup, allowed_domains, storage_quota_mb, api_access, public_sharing, memory,
  member_bots, member_bot_tools, search, images, speech, created_at`;

/** The organization's image generation settings, or null while it has none. */
export async function imageSettings(db: Db, tenant: string): Promise<OrganizationRow['images']> {
  const { rows } = await db.query<Pick<OrganizationRow, 'images'>>(
    'select images from organizations where subdomain = $1',
    [tenant],
  );
  return rows[0]?.images ?? null;
}

export async function readOrganization(db: Db, subdomain: string): Promise<OrganizationRow | null> {
  const { rows } = await db.query<OrganizationRow>(
    `select ${organizationColumns} from organizations where subdomain = $1`,
    [subdomain],
  );
  return rows[0] ?? null;
}

/** The public address of an organization's logo; the version makes a new logo a new URL. */
export const logoUrl = (row: Pick<OrganizationRow, 'subdomain' | 'logo_type' | 'logo_version'>) =>
  row.logo_type ? `/api/v1/organization/${row.subdomain}/logo?v=${row.logo_version ?? ''}` : null;

/** The organization's logo as stored (base64) and its type; null without one, or when disabled. */
export async function readLogo(db: Db, subdomain: string): Promise<{ data: string; type: string } | null> {
  const { rows } = await db.query<{ logo: string | null; logo_type: string | null; disabled: boolean }>(
    'select logo, logo_type, disabled from organizations where subdomain = lower($1)',
    [subdomain],
  );
  const row = rows[0];
  return row && !row.disabled && row.logo && row.logo_type ? { data: row.logo, type: row.logo_type } : null;
}

/** Replaces a logo stored as it was (an SVG, before they were drawn as PNGs) by its drawn PNG. */
export async function replaceLogo(
  db: Db,
  subdomain: string,
  stored: string,
  logo: { data: string; type: string; version: string },
): Promise<void> {
  await db.query(
    `update organizations set logo = $3, logo_type = $4, logo_version = $5
     where subdomain = lower($1) and logo = $2`,
    [subdomain, stored, logo.data, logo.type, logo.version],
  );
}

/** What a new member of the organization starts with: its own setting, else the server's. */
export const startingBalanceOf = (row: Pick<OrganizationRow, 'starting_balance'>, fallback: number) =>
  row.starting_balance === null ? fallback : Number(row.starting_balance);

/** Whether `email` may sign up in the organization, and the role an invitation gives it. */
export async function signupAllowance(
  db: Db,
  tenant: string,
  email: string,
): Promise<{ role: 'owner' | 'admin' | 'member'; invited: boolean }> {
  const { rows } = await db.query<{
    signup: string;
    allowed_domains: string[];
    role: 'owner' | 'admin' | 'member' | null;
    live: boolean | null;
  }>(
    `select o.signup, o.allowed_domains, i.role, i.expires_at > now() as live from organizations o
     left join invitations i on i.tenant = o.subdomain and i.email = lower($2)
     where o.subdomain = $1`,
    [tenant, email],
  );
  const row = rows[0];
  if (!row) throw new ApiError(400, 'Unknown organization', 'UNKNOWN_ORGANIZATION');
  // An invitation admits whatever the policy, until it expires.
  if (row.role && row.live) return { role: row.role, invited: true };
  if (row.role && row.signup === 'invite') {
    throw new ApiError(
      403,
      'Your invitation has expired. Ask an administrator of this organization to send it again.',
      'INVITATION_EXPIRED',
      'email',
    );
  }
  if (row.signup === 'invite') {
    throw new ApiError(
      403,
      'This organization admits new members by invitation only. Ask one of its administrators to invite you.',
      'INVITE_ONLY',
      'email',
    );
  }
  if (row.signup === 'domains') {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (!row.allowed_domains.includes(domain)) {
      throw new ApiError(
        403,
        `This organization admits addresses at ${row.allowed_domains.join(', ') || 'no domain'} only.`,
        'DOMAIN_NOT_ALLOWED',
        'email',
      );
    }
  }
  return { role: 'member', invited: false };
}
