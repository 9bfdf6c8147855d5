-- Groups of an organization's members: which bots they may use, and how much they may spend a month.
create table groups (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  name text not null,
  -- Per member and calendar month (UTC), in the organization's currency; null: no limit.
  monthly_budget numeric(14, 4) check (monthly_budget is null or monthly_budget >= 0),
  -- Names of the identity provider's groups whose members belong here (set at each SSO login).
  idp_groups text[] not null default '{}',
  created_at timestamptz not null default now()
);
create unique index groups_tenant_name on groups (tenant, lower(name));

create table group_members (
  group_id text not null references groups (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  primary key (group_id, user_id)
);
create index group_members_user on group_members (user_id);

-- A bot with rows here is for those groups' members only; a bot without is for everyone.
create table bot_groups (
  bot_id text not null references bots (id) on delete cascade,
  group_id text not null references groups (id) on delete cascade,
  primary key (bot_id, group_id)
);
create index bot_groups_group on bot_groups (group_id);

-- What a member spent in the month `spent_month` (its first day, UTC): charges settled and replies
-- still holding a reservation, both counted when reserved. It lives on the member's row, which the
-- reservation updates anyway, so the budget is checked under the same row lock as the balance.
alter table users add column month_spent numeric(14, 4) not null default 0;
alter table users add column spent_month date;
