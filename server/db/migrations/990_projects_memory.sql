-- Projects: a member's own place for conversations, with instructions, files, knowledge bases and a
-- default bot, shared with groups of the organization. Only the owner changes or deletes it.
create table projects (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  owner_id text not null references users (id) on delete cascade,
  name text not null,
  instructions text not null default '' check (length(instructions) <= 8000),
  bot_id text references bots (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index projects_owner on projects (tenant, owner_id, created_at);

-- A project's files are files of its owner (uploaded like attachments): searched for every message.
create table project_files (
  project_id text not null references projects (id) on delete cascade,
  file_id text not null references files (id) on delete cascade,
  position smallint not null,
  primary key (project_id, file_id)
);
create index project_files_file on project_files (file_id);

create table project_knowledge (
  project_id text not null references projects (id) on delete cascade,
  base_id text not null references knowledge_bases (id) on delete cascade,
  primary key (project_id, base_id)
);

-- The groups a project is shared with: their members see it and start their own conversations in it.
create table project_groups (
  project_id text not null references projects (id) on delete cascade,
  group_id text not null references groups (id) on delete cascade,
  primary key (project_id, group_id)
);
create index project_groups_group on project_groups (group_id);

-- A conversation belongs to at most one project; pinned ones lead the list, archived ones leave it.
alter table topics add column project_id text references projects (id) on delete set null;
alter table topics add column pinned boolean not null default false;
alter table topics add column archived boolean not null default false;
-- A title the member wrote is never replaced by one written for them.
alter table topics add column title_set boolean not null default false;
create index topics_project on topics (project_id) where project_id is not null;

-- What Parley should know about a member and how to answer them, for every model bot's replies.
alter table users add column instructions text not null default '' check (length(instructions) <= 3000);
alter table users add column use_memory boolean not null default true;

-- Whether the organization's members' memories are saved and given (existing ones are kept when off).
alter table organizations add column memory boolean not null default true;

-- A member's memories: short facts, everywhere or only in one project, added by them or by a model bot.
create table memories (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  user_id text not null references users (id) on delete cascade,
  project_id text references projects (id) on delete cascade,
  text text not null check (length(text) between 1 and 1000),
  source text not null check (source in ('member', 'model')),
  embedding real[],
  search tsvector generated always as (to_tsvector('simple', parley_fold(text))) stored,
  created_at timestamptz not null default now()
);
create index memories_user on memories (tenant, user_id, created_at);
create index memories_search on memories using gin (search);
