-- Shared conversations: a snapshot of the branch on screen when it was shared, behind an unguessable
-- id. One share per conversation: sharing it again rewrites the snapshot and keeps the id. Revoking
-- deletes the row, and so does deleting the conversation (or its owner): every node asks the database
-- on every read, so a revoked link is gone everywhere at once.
create table shares (
  id text primary key,
  tenant text not null references organizations (subdomain),
  user_id text not null references users (id) on delete cascade,
  topic_id text not null unique references topics (id) on delete cascade,
  audience text not null check (audience in ('organization', 'public')),
  title text not null,
  bot_id text not null,
  bot_name text not null,
  platform text not null,
  -- [{ role, text, createdAt }], root first: the messages of the branch, nothing else of them.
  messages jsonb not null,
  shared_at timestamptz not null default now(),
  created_at timestamptz not null default now()
);
create index shares_user on shares (tenant, user_id, shared_at desc);

-- Whether the organization's conversations may be shared with anyone (public links); off turns the
-- existing public links off too.
alter table organizations add column public_sharing boolean not null default true;
