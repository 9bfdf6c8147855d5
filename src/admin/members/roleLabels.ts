import type { MemberRole } from '../../../machines/members';

/** A role as people read it (translated where shown). */
export const roleLabels: Record<MemberRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
