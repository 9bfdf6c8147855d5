-- A conversation brought from another service (ChatGPT, Claude) is known by its source and its id
-- there: importing the same export again adds nothing twice.
alter table topics add column import_key text;
create unique index topics_import_key on topics (tenant, user_id, import_key) where import_key is not null;
