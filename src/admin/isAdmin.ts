/** Owners and admins run the organization; members do not see the admin area. */
export const isAdmin = (role: string | undefined) => role === 'owner' || role === 'admin';
