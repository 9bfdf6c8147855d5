-- A token names one session: logout revokes it, logout-everywhere and password changes revoke them all.
create table sessions (
  id text primary key default gen_random_uuid()::text,
  tenant text not null,
  user_id text not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_user on sessions (user_id) where revoked_at is null;
create index sessions_expiry on sessions (expires_at);
alter table users drop column token_version;

-- Counters every node shares (login failures, per-user limits), each over a fixed window.
create table rate_counters (
  key text primary key,
  count integer not null,
  reset_at timestamptz not null
);

-- Credit held for replies being written: what can be spent is balance - reserved.
alter table users add column reserved numeric(14, 4) not null default 0;
alter table users add constraint users_reserved_covered check (reserved >= 0 and reserved <= balance);

-- A bot message is stored when its reply starts and checkpointed while it streams; its writer
-- renews the lease, and a reply whose lease runs out was cut off (the writer is gone).
alter table messages add column status text not null default 'complete'
  check (status in ('complete', 'streaming', 'stopped', 'interrupted', 'failed'));
update messages set status = 'stopped' where stopped;
alter table messages drop column stopped;
alter table messages add column cost numeric(14, 4);
alter table messages add column reserved numeric(14, 4) not null default 0;
alter table messages add column lease_until timestamptz;
-- One reply at a time per topic, on every node.
create unique index messages_one_streaming on messages (topic_id) where status = 'streaming';

-- The translation memory keeps the most recently used answers only.
alter table translations add column used_at timestamptz not null default now();
create index translations_used on translations (used_at);

-- A code is for one purpose: a sign-up code cannot reset a password, nor the other way round.
alter table one_time_codes add column purpose text not null default 'signup' check (purpose in ('signup', 'reset'));
