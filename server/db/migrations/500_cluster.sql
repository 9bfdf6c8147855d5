-- Until now every start wrote `active` of the model bots from that node's own settings; whether a
-- bot can run is now decided per request. The seeded model bots get back the state they were
-- seeded with (only those the old start-up rewrite could have touched).
update bots set active = true
where platform = 'openai' and not (config ? 'baseUrl') and name in ('Assistant', 'Code Helper', 'Acme Helpdesk');
