-- A project's files are indexed like a knowledge base's documents (passages with vectors, searched by
-- full text and by meaning), once per file however many projects hold it: a document without a base
-- is a member's file that a project holds, kept while one does.
alter table knowledge_documents alter column base_id drop not null;
alter table knowledge_passages alter column base_id drop not null;

-- A file of text a project takes is queued for indexing (once: a file already indexed stays so);
-- the last project letting go of it drops its passages. However it happens: a project changed or
-- deleted, its owner deleted.
create function parley_project_file_added() returns trigger language plpgsql as $$
begin
  insert into knowledge_documents (file_id, tenant)
  select f.id, f.tenant from files f join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
  where f.id = new.file_id and f.user_id is not null and b.text is not null
  on conflict (file_id) do nothing;
  if found then
    perform pg_notify('parley_knowledge', new.file_id);
  end if;
  return null;
end
$$;
create trigger project_files_index after insert on project_files
  for each row execute function parley_project_file_added();

create function parley_project_file_dropped() returns trigger language plpgsql as $$
begin
  delete from knowledge_documents d where d.file_id = old.file_id and d.base_id is null
    and not exists (select 1 from project_files pf where pf.file_id = old.file_id);
  return null;
end
$$;
create trigger project_files_unindex after delete on project_files
  for each row execute function parley_project_file_dropped();

-- The files projects held before: indexed now.
insert into knowledge_documents (file_id, tenant)
select distinct f.id, f.tenant from project_files pf join files f on f.id = pf.file_id
join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
where f.user_id is not null and b.text is not null
on conflict (file_id) do nothing;
