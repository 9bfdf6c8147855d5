-- The conversation lists page by (pinned, updated_at, id), the archived ones apart: one index in that
-- order, so a page is an index scan however many conversations a member has. It also serves what the
-- older (tenant, user_id, updated_at, id) index did by its first columns.
create index topics_list on topics (tenant, user_id, archived, pinned desc, updated_at desc, id desc);
drop index topics_user;
