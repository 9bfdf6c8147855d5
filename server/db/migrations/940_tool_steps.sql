-- Tools of model bots: each call a reply (or a completion of the API) made, in order. A step is
-- written when the call is announced and again when it ends, so a reload or another node shows it;
-- an "ask first" call waits here for the user's answer, given on any node.
create table tool_steps (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain) on delete cascade,
  message_id text references messages (id) on delete cascade,
  api_call_id text references api_calls (id) on delete cascade,
  position integer not null,
  tool text not null,
  -- The id the model gave the call (its `tool` message answers it).
  model_call_id text not null default '',
  arguments jsonb,
  result text,
  error text,
  status text not null check (status in ('awaiting_approval', 'running', 'done', 'error', 'denied')),
  ms integer not null default 0,
  created_at timestamptz not null default now()
);
create index tool_steps_message on tool_steps (message_id, position);
create index tool_steps_api_call on tool_steps (api_call_id);
create index tool_steps_tenant on tool_steps (tenant, created_at);
