-- The tools an admin lets members give their own bots (names of the organization's tools). A tool
-- taken off the list is taken off every member bot at once (server/admin/settings).
alter table organizations add column member_bot_tools text[] not null default '{}';

-- A member's bot its maker deleted while conversations still name it: kept for them (a topic's bot
-- cannot go), answers no more, listed nowhere; its name is free again. Unused, it is deleted outright.
alter table bots add column deleted_at timestamptz;
drop index bots_owner_name;
create unique index bots_owner_name on bots (tenant, owner_id, name) where owner_id is not null and deleted_at is null;
