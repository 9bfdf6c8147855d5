-- The models an organization offers: a provider's model under a display name, with its price per
-- reply and, optionally, per million input and output tokens. `provider` null: the server's own
-- model server (OPENAI_BASE_URL).
create table models (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  name text not null,
  provider text references providers (id) on delete restrict,
  model text not null,
  price numeric(14, 4) not null default 0 check (price >= 0),
  input_price numeric(14, 4) check (input_price is null or input_price >= 0),
  output_price numeric(14, 4) check (output_price is null or output_price >= 0),
  vision boolean not null default false,
  context_tokens integer not null default 8192 check (context_tokens > 0),
  -- Whether members may build their own bots on it.
  member_bots boolean not null default false,
  created_at timestamptz not null default now()
);
create unique index models_tenant_name on models (tenant, lower(name));

-- The models a bot offers, the first (position 0) its default. A model a bot uses cannot be removed.
create table bot_models (
  bot_id text not null references bots (id) on delete cascade,
  model_id text not null references models (id) on delete restrict,
  position smallint not null,
  primary key (bot_id, model_id)
);
create index bot_models_model on bot_models (model_id);

-- Whether members may set a conversation's temperature and maximum reply length.
alter table bots add column user_parameters boolean not null default false;

-- Members' own bots: `owner_id` set, seen by `visibility` (groups: the bot's bot_groups rows).
-- Admin bots keep owner_id null and visibility null. An admin retires a member bot (`retired`).
alter table bots add column owner_id text references users (id) on delete cascade;
alter table bots add column visibility text check (visibility in ('private', 'groups', 'organization'));
alter table bots add column retired boolean not null default false;
alter table bots add constraint bots_member_visibility check ((owner_id is null) = (visibility is null));
-- Names are unique among the organization's admin bots, and among each member's own.
alter table bots drop constraint bots_tenant_name_key;
create unique index bots_tenant_name on bots (tenant, name) where owner_id is null;
create unique index bots_owner_name on bots (tenant, owner_id, name) where owner_id is not null;
create index bots_owner on bots (owner_id) where owner_id is not null;

-- Whether members may make bots.
alter table organizations add column member_bots boolean not null default false;

-- A conversation's model choice and parameters ({ temperature?, maxTokens? }).
alter table topics add column model_id text references models (id) on delete set null;
alter table topics add column parameters jsonb not null default '{}';

-- The model that wrote a reply, and the tokens the provider reported (token-priced models settle from them).
alter table messages add column model_id text references models (id) on delete set null;
alter table messages add column prompt_tokens integer;
alter table messages add column completion_tokens integer;
alter table api_calls add column model_id text references models (id) on delete set null;

-- A member's saved prompts (`/command`), private or (admins) for the whole organization.
create table prompts (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  user_id text not null references users (id) on delete cascade,
  command text not null,
  title text not null,
  text text not null,
  visibility text not null check (visibility in ('private', 'organization')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index prompts_user on prompts (tenant, user_id);
create index prompts_organization on prompts (tenant) where visibility = 'organization';

-- Thumbs up or down on a reply, one per reply, with an optional reason. The bot and model are kept
-- with it so the admins' figures outlive the conversation (message_id then becomes null).
create table feedback (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  user_id text references users (id) on delete set null,
  message_id text references messages (id) on delete set null,
  bot_id text references bots (id) on delete set null,
  model_id text references models (id) on delete set null,
  rating text not null check (rating in ('up', 'down')),
  reason text not null default '' check (length(reason) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index feedback_message on feedback (message_id);
create index feedback_tenant on feedback (tenant, bot_id, model_id);
