-- Image generation (issue 35): the organization's settings, `{ provider, model, price }` (provider: one
-- of its providers' ids, null = the server's own model server; price per image, in its money), null
-- while not configured.
alter table organizations add column images jsonb;

-- One image asked of the provider for a reply: its price held on the member (like a reply's) from before
-- the provider is called until it is stored (charged) or failed (given back), in one statement each.
-- `key` (the prompt and size asked) makes the same image of the same reply one generation: asked
-- again (a continued reply, the model repeating a call) it is not generated or charged twice.
create table image_generations (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  user_id text not null references users (id) on delete cascade,
  message_id text not null references messages (id) on delete cascade,
  key text not null,
  status text not null default 'pending' check (status in ('pending', 'complete', 'failed')),
  reserved numeric(14, 4) not null default 0,
  cost numeric(14, 4),
  file_id text,
  created_at timestamptz not null default now(),
  unique (message_id, key)
);
-- The sweep finds holds whose writer is gone.
create index image_generations_pending on image_generations (created_at) where status = 'pending';
