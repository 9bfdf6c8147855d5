-- Search over the user's conversations: titles and messages as lower-cased, accent-folded lexemes
-- of the 'simple' configuration (no stemming: any language). Folding is one immutable function, so
-- PGlite and PostgreSQL index and query alike; the query words go through it too.
create function parley_fold(value text) returns text language sql immutable parallel safe as $$
  select translate(lower(value),
    'àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉċčďēĕėęěĝğġģĥĩīĭįĵķĺļľńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżžơưǎǐǒǔǖǘǚǜǟǡǣǧǩǫǭǯǰǵǹǻǽǿȁȃȅȇȉȋȍȏȑȓȕȗșțȟȧȩȫȭȯȱȳ΅ΐάέήίΰϊϋόύώϓϔḁḃḅḇḉḋḍḏḑḓḕḗḙḛḝḟḡḣḥḧḩḫḭḯḱḳḵḷḹḻḽḿṁṃṅṇṉṋṍṏṑṓṕṗṙṛṝṟṡṣṥṧṩṫṭṯṱṳṵṷṹṻṽṿẁẃẅẇẉẋẍẏẑẓẕẖẗẘẙẛạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹёøđħłŧıßæœðþ',
    'aaaaaaceeeeiiiinooooouuuuyyaaaccccdeeeeegggghiiiijklllnnnooorrrssssttuuuuuuwyzzzouaiouuuuuaaægkooʒjgnaæøaaeeiioorruusthaeooooy¨ιαεηιυιυουωϒϒabbbcdddddeeeeefghhhhhiikkkllllmmmnnnnoooopprrrrsssssttttuuuuuvvwwwwwxxyzzzhtwyſaaaaaaaaaaaaeeeeeeeeiioooooooooooouuuuuuuyyyyеodhltisaodt')
$$;

alter table messages add column search tsvector generated always as (to_tsvector('simple', parley_fold(text))) stored;
create index messages_search on messages using gin (search);
alter table topics add column search tsvector generated always as (to_tsvector('simple', parley_fold(title))) stored;
create index topics_search on topics using gin (search);

-- The conversation list pages by (updated_at, id).
drop index topics_user;
create index topics_user on topics (tenant, user_id, updated_at desc, id desc);
