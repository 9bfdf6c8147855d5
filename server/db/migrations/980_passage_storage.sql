-- Retrieval ranks every passage that matches a question by its search vector, and reads the text of
-- the best few only. Out of line, each vector read was a TOAST fetch (about 30 µs on PGlite: 40 ms
-- for a word in 1,250 passages of 10,000); kept in the row (compressed when it pays) it is read with
-- the row, while the text and the embedding (read for the best few, and once per base into a node's
-- cache) go out of line, uncompressed.
alter table knowledge_passages
  alter column search set storage main,
  alter column text set storage external,
  alter column embedding set storage external;
-- Passages stored before: written again under these rules (a new text makes a new row: its search
-- vector is computed again, and its embedding stored anew too).
update knowledge_passages set text = text || '';
-- Passages are written once per document and searched at every question: straight into the index,
-- not into a pending list that every search reads through and only a vacuum (PGlite has none) merges.
alter index knowledge_passages_search set (fastupdate = off);
select gin_clean_pending_list('knowledge_passages_search'::regclass);
