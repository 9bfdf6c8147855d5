-- Attachments. The bytes live in the database, so every node reads what another stored: one blob per
-- organization and SHA-256 of what was uploaded (the same bytes twice are stored once), with what
-- reading them found (the type sniffed from the bytes, a document's text, an image's thumbnail).
create table file_blobs (
  tenant text not null references organizations (subdomain),
  sha256 text not null,
  type text not null,
  -- What is stored and served: an image re-encoded without its metadata, anything else as uploaded.
  bytes bytea not null,
  size bigint not null,
  thumbnail bytea,
  text text,
  pages integer,
  created_at timestamptz not null default now(),
  primary key (tenant, sha256)
);
-- Mostly compressed formats already: not compressed again, and read in slices without decompressing.
alter table file_blobs alter column bytes set storage external;
alter table file_blobs alter column thumbnail set storage external;

-- A file as its owner sees it: a name and the blob it is.
create table files (
  id text primary key default gen_random_uuid()::text,
  tenant text not null,
  user_id text not null references users (id) on delete cascade,
  sha256 text not null,
  name text not null,
  created_at timestamptz not null default now(),
  foreign key (tenant, sha256) references file_blobs (tenant, sha256)
);
create index files_user on files (tenant, user_id, created_at);
create index files_blob on files (tenant, sha256);

-- A blob goes with the last file that is it, however the file goes (deleted, its topic or its owner
-- deleted). The blob's row is locked first, so an upload reusing it at that moment is seen, not lost.
create function parley_drop_unused_blob() returns trigger language plpgsql as $$
begin
  perform 1 from file_blobs where tenant = old.tenant and sha256 = old.sha256 for update;
  delete from file_blobs b where b.tenant = old.tenant and b.sha256 = old.sha256
    and not exists (select 1 from files f where f.tenant = old.tenant and f.sha256 = old.sha256);
  return null;
end
$$;
create trigger files_drop_unused_blob after delete on files
  for each row execute function parley_drop_unused_blob();

-- The files a message carried, as they were then: a file deleted later shows as removed.
create table message_files (
  message_id text not null references messages (id) on delete cascade,
  position smallint not null,
  file_id text not null,
  name text not null,
  type text not null,
  size bigint not null,
  primary key (message_id, position)
);
create index message_files_file on message_files (file_id);

-- An organization's storage for files, set by its admins.
alter table organizations add column storage_quota_mb integer not null default 1024;
