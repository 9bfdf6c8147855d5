-- The browser an SSO sign-in's code was handed to: the SHA-256 of a random value the callback put in
-- that browser's HttpOnly cookie, which the exchange needs. Codes made before have none: refused.
alter table oidc_codes add column browser_hash text;

-- How a session was opened: by a password (login, signup, reset) or by SSO. Turning "SSO required" on
-- ends the password sessions of everyone but owners; sessions opened before count as password ones.
alter table sessions add column via text not null default 'password' check (via in ('password', 'sso'));
