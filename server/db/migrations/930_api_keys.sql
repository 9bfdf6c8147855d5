-- Parley's OpenAI-compatible API: personal keys of one member in one organization, stored hashed.
alter table organizations add column api_access boolean not null default true;

create table api_keys (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  name text not null,
  -- SHA-256 (hex) of the key: the key has 256 random bits, so a fast hash is as good as a slow one.
  key_hash text not null unique,
  -- The key's last four characters, to tell keys apart in a list.
  last4 text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  -- Updated at most once a minute per key (cheap), so "last used" is a minute accurate.
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_user on api_keys (tenant, user_id, created_at desc);

-- One completion through the API: its reservation while it runs, then what it cost. Every call has
-- one, stored as a conversation (`topic_id`) or not.
create table api_calls (
  id text primary key default gen_random_uuid()::text,
  tenant text not null,
  user_id text not null references users (id) on delete cascade,
  key_id text references api_keys (id) on delete set null,
  bot_id text references bots (id) on delete set null,
  status text not null check (status in ('streaming', 'complete', 'stopped', 'failed', 'interrupted')),
  reserved numeric(14, 4) not null default 0,
  cost numeric(14, 4),
  prompt_tokens integer,
  completion_tokens integer,
  -- The topic it was stored as (`store: true`).
  topic_id text references topics (id) on delete set null,
  lease_until timestamptz,
  created_at timestamptz not null default now()
);
create index api_calls_tenant on api_calls (tenant, created_at);
create index api_calls_key on api_calls (key_id, created_at);
create index api_calls_streaming on api_calls (lease_until) where status = 'streaming';

-- Messages of a conversation stored through the API: its call counts them in the usage report.
alter table messages add column api_call_id text references api_calls (id) on delete set null;

-- GET /v1/models tells when each model (bot) was made; bots made before this migration count from it.
alter table bots add column created_at timestamptz not null default now();
