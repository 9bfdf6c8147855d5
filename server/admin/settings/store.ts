import type { SpeechSettings } from '../../audio/settings';
import type { Db } from '../../db/database';
import type { OrganizationRow } from '../../organizations/store';
import type { StoredSearch } from '../../search/store';

/**
 * What a settings change writes: a value to set, or null (undefined for the logo and the colour)
 * to keep what is stored. The sign-up policy and its domains are always written, as checked together.
 */
export interface SettingsChange {
  name: string | null;
  /** Given (a colour or null to remove it), or undefined to keep. */
  brandColor: string | null | undefined;
  /** Given (the drawn logo or null to remove it), or undefined to keep. */
  logo: { data: string; type: string; version: string } | null | undefined;
  defaultLanguage: string | null;
  currency: string | null;
  /** Given (an amount, or null for the server's), or undefined to keep. */
  startingBalance: number | null | undefined;
  signup: OrganizationRow['signup'];
  allowedDomains: string[];
  storageQuotaMb: number | null;
  apiAccess: boolean | null;
  publicSharing: boolean | null;
  memory: boolean | null;
  memberBots: boolean | null;
  /** Given (checked names), or null to keep. */
  memberBotTools: string[] | null;
  /** Given (checked, its key sealed; null: none), or undefined to keep. */
  search: StoredSearch | null | undefined;
  /** Given (the image settings, or null to turn image generation off), or undefined to keep. */
  images: { provider: string | null; model: string; price: number } | null | undefined;
  /** Given (checked, whole), or null to keep. */
  speech: SpeechSettings | null;
}

/** Writes the organization's settings in one statement. */
export async function updateSettings(db: Db, tenant: string, change: SettingsChange) {
  await db.query(
    `update organizations set
       name = coalesce($2, name),
       brand_color = case when $3 then $4 else brand_color end,
       logo = case when $5 then $6 else logo end,
       logo_type = case when $5 then $7 else logo_type end,
       logo_version = case when $5 then $8 else logo_version end,
       default_language = coalesce($9, default_language),
       currency = coalesce($10, currency),
       starting_balance = case when $11 then $12::numeric else starting_balance end,
       signup = $13, allowed_domains = $14::text[],
       storage_quota_mb = coalesce($15, storage_quota_mb),
       api_access = coalesce($16, api_access),
       public_sharing = coalesce($17, public_sharing),
       memory = coalesce($18, memory),
       member_bots = coalesce($19, member_bots),
       member_bot_tools = coalesce($20::text[], member_bot_tools),
       search = case when $21 then $22::jsonb else search end,
       images = case when $23 then $24::jsonb else images end,
       speech = coalesce($25::jsonb, speech)
     where subdomain = $1`,
    [
      tenant,
      change.name,
      change.brandColor !== undefined,
      change.brandColor ?? null,
      change.logo !== undefined,
      change.logo?.data ?? null,
      change.logo?.type ?? null,
      change.logo?.version ?? null,
      change.defaultLanguage,
      change.currency,
      change.startingBalance !== undefined,
      change.startingBalance ?? null,
      change.signup,
      change.allowedDomains,
      change.storageQuotaMb,
      change.apiAccess,
      change.publicSharing,
      change.memory,
      change.memberBots,
      change.memberBotTools,
      change.search !== undefined,
      change.search ? JSON.stringify(change.search) : null,
      change.images !== undefined,
      change.images ? JSON.stringify(change.images) : null,
      change.speech && JSON.stringify(change.speech),
    ],
  );
  // A tool members may no longer use leaves their bots at once.
  if (change.memberBotTools)
    await db.query(
      `update bots set config = config || jsonb_build_object('tools', coalesce((
         select jsonb_agg(tool) from jsonb_array_elements_text(config->'tools') as tool
         where tool = any($2::text[])), '[]'::jsonb))
       where tenant = $1 and owner_id is not null and jsonb_typeof(config->'tools') = 'array'`,
      [tenant, change.memberBotTools],
    );
}
