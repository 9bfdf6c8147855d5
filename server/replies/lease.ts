/** How long a reply's writer (a chat reply's, an API call's) may stay silent before the reply counts as cut off. */
export const leaseSeconds = 5;

/** SQL: the end of a lease taken or renewed now. */
export const lease = `now() + make_interval(secs => ${leaseSeconds})`;
