-- A command is unique among each member's own prompts, and among the organization's prompts, so `/x`
-- picks one of each at most. Commands are kept in lower case (server/prompts: commandOf).
create unique index prompts_owner_command on prompts (tenant, user_id, command);
create unique index prompts_organization_command on prompts (tenant, command) where visibility = 'organization';
