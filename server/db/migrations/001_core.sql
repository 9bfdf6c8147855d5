-- Organizations are tenants; 'app' stands for "no specific organization".
create table organizations (
  id text primary key default gen_random_uuid()::text,
  subdomain text not null unique,
  name text not null,
  currency text not null default 'EUR',
  created_at timestamptz not null default now()
);

create table users (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  username text not null,
  display_name text not null,
  email text not null,
  password_hash text not null,
  -- Raised on logout-everywhere or a password change: older tokens stop working.
  token_version integer not null default 0,
  balance numeric(14, 4) not null,
  currency text not null,
  created_at timestamptz not null default now()
);
create unique index users_tenant_email on users (tenant, lower(email));
create unique index users_tenant_username on users (tenant, lower(username));

create table one_time_codes (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  email text not null,
  code_hash text not null,
  expires_at timestamptz not null,
  attempts integer not null default 0,
  used boolean not null default false,
  created_at timestamptz not null default now()
);
create index one_time_codes_lookup on one_time_codes (tenant, lower(email), created_at desc);

create table categories (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  name text not null,
  unique (tenant, name)
);

create table bots (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  name text not null,
  description text not null,
  active boolean not null,
  platform text not null,
  price numeric(14, 4) not null default 0,
  -- builtin: {"engine": "eliza" | "calculator" | "translator"}; openai: {"model", "systemPrompt", "baseUrl"?}
  config jsonb not null default '{}',
  position integer not null default 0,
  unique (tenant, name)
);

create table bot_categories (
  bot_id text not null references bots (id) on delete cascade,
  category_id text not null references categories (id) on delete cascade,
  primary key (bot_id, category_id)
);

create table transactions (
  id text primary key default gen_random_uuid()::text,
  tenant text not null,
  user_id text not null references users (id) on delete cascade,
  amount numeric(14, 4) not null,
  description text not null,
  created_at timestamptz not null default now()
);
create index transactions_user on transactions (user_id, created_at desc);

create table notifications (
  id text primary key default gen_random_uuid()::text,
  tenant text not null,
  user_id text not null references users (id) on delete cascade,
  title text not null,
  body text not null,
  read boolean not null default false,
  created_at timestamptz not null default now()
);
create index notifications_user on notifications (user_id, created_at desc);

-- Translation memory: answers of the machine-translation provider, kept.
create table translations (
  text text not null,
  language text not null,
  translation text not null,
  primary key (text, language)
);
