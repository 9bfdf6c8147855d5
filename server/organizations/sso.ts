import type { Db } from '../db/database';

/** An organization's SSO settings as stored (the client secret sealed). */
export interface SsoRow {
  tenant: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  secret_hint: string;
  scopes: string[];
  email_claim: string;
  name_claim: string;
  groups_claim: string | null;
  label: string;
  required: boolean;
  updated_at: Date;
}

/** The wire shape of `GET /api/v1/admin/sso`: the secret masked, never sent back. */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  scopes: string[];
  claims: { email: string; name: string; groups?: string };
  label: string;
  required: boolean;
}

const ssoColumns = `tenant, issuer, client_id, client_secret, secret_hint, scopes, email_claim, name_claim,
  groups_claim, label, required, updated_at`;

export async function readSso(db: Db, tenant: string): Promise<SsoRow | null> {
  const { rows } = await db.query<SsoRow>(`select ${ssoColumns} from sso_configs where tenant = $1`, [
    tenant,
  ]);
  return rows[0] ?? null;
}

/** A secret as a client may see it: that there is one, and its last four characters when long. */
export const maskSecret = (row: Pick<SsoRow, 'client_secret' | 'secret_hint'>) =>
  row.client_secret ? `••••${row.secret_hint}` : null;

export const toSsoSettings = (row: SsoRow): SsoSettings => ({
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecret: maskSecret(row),
  scopes: row.scopes,
  claims: {
    email: row.email_claim,
    name: row.name_claim,
    ...(row.groups_claim ? { groups: row.groups_claim } : {}),
  },
  label: row.label,
  required: row.required,
});
