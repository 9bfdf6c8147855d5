-- Messages form a tree: editing a message or regenerating a reply starts a sibling branch, and the
-- old one is kept. A topic's head is the leaf of the branch on screen.
alter table messages add column parent text references messages (id) on delete cascade;
update messages m set parent = (
  select p.id from messages p where p.topic_id = m.topic_id and p.seq < m.seq order by p.seq desc limit 1);
create index messages_parent on messages (parent);

alter table topics add column head text references messages (id) on delete set null;
update topics t set head = (select m.id from messages m where m.topic_id = t.id order by m.seq desc limit 1);
