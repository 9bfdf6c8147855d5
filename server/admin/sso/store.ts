import type { Db } from '../../db/database';
import type { SsoRow } from '../../organizations/sso';

/** What the admin saves of the identity provider: the secret sealed already (or null: none). */
export interface SsoConfig {
  issuer: string;
  clientId: string;
  sealedSecret: string | null;
  secretHint: string;
  scopes: string[];
  emailClaim: string;
  nameClaim: string;
  groupsClaim: string | null;
  label: string;
  required: boolean;
}

/** Stores the organization's identity provider, replacing the one it had; answers it as stored. */
export async function saveSso(db: Db, tenant: string, config: SsoConfig): Promise<SsoRow> {
  const { rows } = await db.query<SsoRow>(
    `insert into sso_configs (tenant, issuer, client_id, client_secret, secret_hint, scopes, email_claim,
       name_claim, groups_claim, label, required)
     values ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9, $10, $11)
     on conflict (tenant) do update set issuer = excluded.issuer, client_id = excluded.client_id,
       client_secret = excluded.client_secret, secret_hint = excluded.secret_hint, scopes = excluded.scopes,
       email_claim = excluded.email_claim, name_claim = excluded.name_claim,
       groups_claim = excluded.groups_claim, label = excluded.label, required = excluded.required,
       updated_at = now()
     returning *`,
    [
      tenant,
      config.issuer,
      config.clientId,
      config.sealedSecret,
      config.secretHint,
      config.scopes,
      config.emailClaim,
      config.nameClaim,
      config.groupsClaim,
      config.label,
      config.required,
    ],
  );
  return rows[0];
}

/** Turns SSO off for the organization. */
export async function deleteSso(db: Db, tenant: string) {
  await db.query('delete from sso_configs where tenant = $1', [tenant]);
}
