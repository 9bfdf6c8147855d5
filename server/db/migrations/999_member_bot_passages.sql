-- A member's bot's files are indexed like a project's (994): once per file, searched by full text and
-- by meaning, kept while a project or a bot still in use holds the file.

create function parley_index_file(file text) returns void language plpgsql as $$
begin
  insert into knowledge_documents (file_id, tenant)
  select f.id, f.tenant from files f join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
  where f.id = file and f.user_id is not null and b.text is not null
  on conflict (file_id) do nothing;
  if found then
    perform pg_notify('parley_knowledge', file);
  end if;
end
$$;

create function parley_unindex_file(file text) returns void language plpgsql as $$
begin
  delete from knowledge_documents d where d.file_id = file and d.base_id is null
    and not exists (select 1 from project_files pf where pf.file_id = file)
    and not exists (select 1 from bots b where b.owner_id is not null and b.deleted_at is null
                    and b.config->'files' ? file);
end
$$;

create or replace function parley_project_file_added() returns trigger language plpgsql as $$
begin
  perform parley_index_file(new.file_id);
  return null;
end
$$;

create or replace function parley_project_file_dropped() returns trigger language plpgsql as $$
begin
  perform parley_unindex_file(old.file_id);
  return null;
end
$$;

-- A member's bot taking files, letting go of them, deleted (by its maker, or outright).
create function parley_member_bot_files() returns trigger language plpgsql as $$
declare
  kept jsonb := case when tg_op <> 'DELETE' and new.owner_id is not null and new.deleted_at is null
                     then coalesce(new.config->'files', '[]') else '[]' end;
  file text;
begin
  for file in select jsonb_array_elements_text(kept) loop
    perform parley_index_file(file);
  end loop;
  if tg_op <> 'INSERT' and old.owner_id is not null then
    for file in select jsonb_array_elements_text(coalesce(old.config->'files', '[]')) loop
      if not kept ? file then
        perform parley_unindex_file(file);
      end if;
    end loop;
  end if;
  return null;
end
$$;
create trigger bots_files_index after insert or update of config, deleted_at or delete on bots
  for each row execute function parley_member_bot_files();

-- The files members' bots held before: indexed now.
select parley_index_file(given.file)
from bots b, jsonb_array_elements_text(coalesce(b.config->'files', '[]')) as given (file)
where b.owner_id is not null and b.deleted_at is null;
