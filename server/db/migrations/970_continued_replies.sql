-- When a reply's credit was reserved: when it started, or when it was continued later (a reply stopped
-- one month and continued the next gives its reservation back to the month that holds it).
alter table messages add column reserved_at timestamptz not null default now();
update messages set reserved_at = created_at;
