// The NOTIFY channels nodes tell each other about changes on (LISTEN/NOTIFY on PostgreSQL, the same
// calls on the embedded database): one place, so an operator reading pg_stat_activity knows them all.

/** A streaming reply's message id, on each checkpoint, tool step and ending. */
export const replyChannel = 'parley_replies';

/** An organization whose bots or categories changed. */
export const botsChannel = 'parley_bots';

/** A document was queued (any node may take it). */
export const knowledgeChannel = 'parley_knowledge';

/** An organization's subdomain when it is created, disabled or enabled. */
export const organizationsChannel = 'parley_organizations';
