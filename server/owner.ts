/** Whose data a query touches: the request's organization and user. Stores scope every query by it. */
export interface Owner {
  tenant: string;
  userId: string;
}
