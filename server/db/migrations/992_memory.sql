-- A member's memory holds a fact once per place (everywhere, or one project), whatever its case: the
-- model saying it again, or two tabs adding it at once, save nothing twice. md5: a 1,000-character
-- text may exceed what a btree entry holds.
create unique index memories_once on memories (user_id, coalesce(project_id, ''), md5(lower(text)));
