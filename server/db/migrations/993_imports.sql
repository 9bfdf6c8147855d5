-- A conversation brought from another service (ChatGPT, Claude) is known by its source and its id
-- there: importing the same export again adds nothing twice.
alter table topics add column import_key text;
create unique index topics_import_key on topics (tenant, user_id, import_key) where import_key is not null;

-- Folding accents reads every character of a text against the whole accent table: in the embedded
-- database that cost 3 ms per KB, which an import of a 100 MB history pays on every message. Text
-- without accents (one byte per character) is only lowered: the same result, at a fraction of it.
create or replace function parley_fold(value text) returns text language sql immutable parallel safe as $$
  select case when octet_length(value) = char_length(value) then lower(value)
    else translate(lower(value),
    'àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉċčďēĕėęěĝğġģĥĩīĭįĵķĺļľńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżžơưǎǐǒǔǖǘǚǜǟǡǣǧǩǫǭǯǰǵǹǻǽǿȁȃȅȇȉȋȍȏȑȓȕȗșțȟȧȩȫȭȯȱȳ΅ΐάέήίΰϊϋόύώϓϔḁḃḅḇḉḋḍḏḑḓḕḗḙḛḝḟḡḣḥḧḩḫḭḯḱḳḵḷḹḻḽḿṁṃṅṇṉṋṍṏṑṓṕṗṙṛṝṟṡṣṥṧṩṫṭṯṱṳṵṷṹṻṽṿẁẃẅẇẉẋẍẏẑẓẕẖẗẘẙẛạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹёøđħłŧıßæœðþ',
    'aaaaaaceeeeiiiinooooouuuuyyaaaccccdeeeeegggghiiiijklllnnnooorrrssssttuuuuuuwyzzzouaiouuuuuaaægkooʒjgnaæøaaeeiioorruusthaeooooy¨ιαεηιυιυουωϒϒabbbcdddddeeeeefghhhhhiikkkllllmmmnnnnoooopprrrrsssssttttuuuuuvvwwwwwxxyzzzhtwyſaaaaaaaaaaaaeeeeeeeeiioooooooooooouuuuuuuyyyyеodhltisaodt')
  end
$$;
