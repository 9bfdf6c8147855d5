-- Organizations run themselves: a membership (a user of an organization) has a role and a status.
alter table users add column role text not null default 'member' check (role in ('owner', 'admin', 'member'));
alter table users add column status text not null default 'active' check (status in ('active', 'suspended'));
create index users_tenant_role on users (tenant, role);

-- An organization's settings. A disabled organization keeps its data but answers nobody.
alter table organizations add column disabled boolean not null default false;
alter table organizations add column brand_color text;
alter table organizations add column logo text;
alter table organizations add column logo_type text check (logo_type in ('image/png', 'image/svg+xml'));
alter table organizations add column logo_version text;
alter table organizations add column default_language text not null default 'en';
-- Null: the server's STARTING_BALANCE.
alter table organizations add column starting_balance numeric(14, 4);
alter table organizations add column signup text not null default 'open' check (signup in ('open', 'invite', 'domains'));
alter table organizations add column allowed_domains text[] not null default '{}';

-- OpenAI-compatible model servers an organization adds; the key is sealed (AES-256-GCM) by the server.
create table providers (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  name text not null,
  base_url text not null,
  api_key text,
  key_hint text not null default '',
  created_at timestamptz not null default now(),
  unique (tenant, name)
);

-- Invitations: sign-up with the mailed code joins with the role chosen.
create table invitations (
  tenant text not null references organizations (subdomain),
  email text not null,
  role text not null check (role in ('owner', 'admin', 'member')),
  invited_by text,
  created_at timestamptz not null default now(),
  primary key (tenant, email)
);

-- Every admin action: who, what, when, before and after.
create table audit_log (
  id text primary key default gen_random_uuid()::text,
  tenant text not null,
  at timestamptz not null default clock_timestamp(),
  seq bigserial not null,
  actor text not null,
  actor_name text not null default '',
  action text not null,
  target text,
  before jsonb,
  after jsonb
);
create index audit_log_tenant on audit_log (tenant, seq desc);
