-- Sign-in with the organization's identity provider (OpenID Connect), one per organization.
create table sso_configs (
  tenant text primary key references organizations (subdomain) on delete cascade,
  issuer text not null,
  client_id text not null,
  -- Sealed like providers' API keys (AES-256-GCM bound to the tenant); null for a public client.
  client_secret text,
  secret_hint text not null default '',
  scopes text[] not null,
  email_claim text not null,
  name_claim text not null,
  groups_claim text,
  label text not null,
  -- Password logins refused for everyone but owners.
  required boolean not null default false,
  updated_at timestamptz not null default now()
);

-- A sign-in started by `GET /auth/oidc/start`: state, nonce and PKCE verifier travel in a sealed cookie
-- of the browser that started it; the row makes the state single-use on every node.
create table oidc_logins (
  state_hash text primary key,
  tenant text not null references organizations (subdomain) on delete cascade,
  redirect_uri text not null,
  return_url text not null,
  expires_at timestamptz not null
);

-- The single-use code the callback hands the app (`?sso=`), exchanged for a token within 60 s.
create table oidc_codes (
  code_hash text primary key,
  tenant text not null references organizations (subdomain) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  expires_at timestamptz not null
);

-- Which account an identity provider's subject signs in as.
create table user_identities (
  tenant text not null references organizations (subdomain) on delete cascade,
  issuer text not null,
  subject text not null,
  user_id text not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_login_at timestamptz not null default now(),
  primary key (tenant, issuer, subject)
);
create index user_identities_user on user_identities (user_id);

-- The identity provider's group names of a member at their last SSO login (the groups claim), for
-- the organization's groups to map.
create table user_idp_groups (
  tenant text not null references organizations (subdomain) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  names text[] not null,
  updated_at timestamptz not null default now(),
  primary key (tenant, user_id)
);
