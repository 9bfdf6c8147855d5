-- MCP servers an organization adds (Streamable HTTP): their tools are listed once when added or
-- changed and kept here, so a bot's tool list is read without a network call. The bearer token is
-- sealed (AES-256-GCM, bound to the organization) like provider keys.
create table mcp_servers (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain) on delete cascade,
  name text not null,
  -- The prefix of its tools' names (`<slug>__<tool>`): one server per slug in an organization.
  slug text not null,
  url text not null,
  token text,
  token_hint text not null default '',
  -- As the server listed them: [{ name, description, parameters }] (name as the server spells it).
  tools jsonb not null default '[]',
  -- The last call that could not reach it (cleared by the next that does), for the admin to see.
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index mcp_servers_slug on mcp_servers (tenant, slug);
