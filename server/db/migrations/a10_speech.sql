-- Voice (issue 35): the organization's speech settings, and each transcription or speech a member
-- asked for, holding its price while the provider works, then what it cost.

-- `{ transcriptionModel, speechModel, voices, provider, transcriptionPrice, speechPrice }`; null: not configured.
alter table organizations add column speech jsonb;

create table audio_calls (
  id text primary key default gen_random_uuid()::text,
  tenant text not null,
  user_id text not null references users (id) on delete cascade,
  kind text not null check (kind in ('transcription', 'speech')),
  status text not null check (status in ('streaming', 'complete', 'stopped', 'failed', 'interrupted')),
  reserved numeric(14, 4) not null default 0,
  cost numeric(14, 4),
  -- The audio's length as charged (the provider's measure, the WAV header or the text's estimate).
  seconds numeric(10, 2),
  lease_until timestamptz,
  created_at timestamptz not null default now()
);
create index audio_calls_user on audio_calls (tenant, user_id, created_at);
create index audio_calls_streaming on audio_calls (lease_until) where status = 'streaming';
