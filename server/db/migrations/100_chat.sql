create table topics (
  id text primary key default gen_random_uuid()::text,
  tenant text not null,
  user_id text not null references users (id) on delete cascade,
  bot_id text not null references bots (id),
  title text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index topics_user on topics (tenant, user_id, updated_at desc);

create table messages (
  id text primary key default gen_random_uuid()::text,
  topic_id text not null references topics (id) on delete cascade,
  seq bigserial not null,
  role text not null check (role in ('user', 'bot')),
  text text not null,
  stopped boolean not null default false,
  created_at timestamptz not null default now()
);
create index messages_topic on messages (topic_id, seq);
