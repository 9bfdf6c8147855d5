-- Invitations are listed, resent and revoked by id, and expire: a resend gives a new code and time.
alter table invitations add column id text not null default gen_random_uuid()::text;
alter table invitations add constraint invitations_id unique (id);
alter table invitations add column expires_at timestamptz;
update invitations set expires_at = created_at + interval '72 hours';
alter table invitations alter column expires_at set not null;
