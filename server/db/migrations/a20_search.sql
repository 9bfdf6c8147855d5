-- Web search (issue 35): the organization's search engine, null = none. `{ "engine": "searxng", "url" }`
-- or `{ "engine": "brave", "key": <sealed>, "keyHint" }`: the Brave key sealed like providers' keys.
alter table organizations add column search jsonb;

-- A message the member sent with "Search the web": its regenerations search again.
alter table messages add column web_search boolean not null default false;
