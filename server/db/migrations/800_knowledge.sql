-- Knowledge bases: documents an organization's admins upload for bots to search.
create table knowledge_bases (
  id text primary key default gen_random_uuid()::text,
  tenant text not null references organizations (subdomain),
  name text not null,
  description text not null default '',
  created_at timestamptz not null default now(),
  unique (tenant, name)
);

-- A document is a file of a base, not of a user: no account owns it, deleting the base deletes it
-- (and its blob when no other file is the same bytes, by files_drop_unused_blob).
alter table files alter column user_id drop not null;
alter table files add column base_id text references knowledge_bases (id) on delete cascade;
alter table files add constraint files_one_owner check ((user_id is null) <> (base_id is null));
create index files_base on files (base_id) where base_id is not null;

-- Where each page of a PDF starts in its text (character offsets), so passages know their page.
alter table file_blobs add column page_starts integer[];

-- A document and its indexing job in one row: any node claims a queued job (FOR UPDATE SKIP LOCKED)
-- under a lease it renews; a job whose lease ran out (its node died) is claimed again. Only the
-- holder of `claim` can finish it, so a document is indexed once.
create table knowledge_documents (
  file_id text primary key references files (id) on delete cascade,
  tenant text not null,
  base_id text not null references knowledge_bases (id) on delete cascade,
  status text not null default 'queued' check (status in ('queued', 'indexing', 'ready', 'failed')),
  error text,
  claim text,
  lease_until timestamptz,
  attempts integer not null default 0,
  created_at timestamptz not null default now()
);
create index knowledge_documents_base on knowledge_documents (base_id, created_at);
create index knowledge_documents_jobs on knowledge_documents (created_at) where status in ('queued', 'indexing');

-- Passages of about 800 tokens, searched with the accent-folded 'simple' text search of
-- 400_messages.sql; vectors (when the provider answers /embeddings) are ranked in process, as
-- pgvector is on neither PGlite nor a stock PostgreSQL.
create table knowledge_passages (
  file_id text not null references knowledge_documents (file_id) on delete cascade,
  position integer not null,
  tenant text not null,
  base_id text not null,
  page integer,
  text text not null,
  embedding real[],
  search tsvector generated always as (to_tsvector('simple', parley_fold(text))) stored,
  primary key (file_id, position)
);
create index knowledge_passages_search on knowledge_passages using gin (search);
create index knowledge_passages_base on knowledge_passages (base_id);

-- The sources a reply was given: [{ n, fileId, name, page?, snippet }].
alter table messages add column citations jsonb;

-- The Librarian, a built-in bot that quotes documents, in every organization there is.
insert into bots (tenant, name, description, active, platform, price, config, position)
select o.subdomain, 'Librarian',
       'Finds and quotes the passages of your attached files and of the knowledge bases that answer your question, with their sources. No model involved.',
       true, 'builtin', 0, '{"engine": "librarian"}',
       (select coalesce(max(b.position), -1) + 1 from bots b where b.tenant = o.subdomain)
from organizations o
on conflict (tenant, name) do nothing;
insert into categories (tenant, name) select subdomain, 'Documents' from organizations
on conflict (tenant, name) do nothing;
insert into bot_categories (bot_id, category_id)
select b.id, c.id from bots b join categories c on c.tenant = b.tenant and c.name = 'Documents'
where b.name = 'Librarian' and b.config->>'engine' = 'librarian'
on conflict do nothing;
