import { usePathname, useSearch } from 'wouter/use-browser-location';

/**
 * The address bar's query, decoded once. wouter's own `useSearch` hands over a query it has decoded
 * already, which parsing decodes a second time: `?returnUrl=%2F%2509%2Fevil.example` would come out as
 * `/\t/evil.example`, which a browser reads as `//evil.example`.
 */
export function useQuery(): URLSearchParams {
  return new URLSearchParams(useSearch());
}

/** Where the visitor is, path and query as the address bar has them (not decoded): a return target. */
export function useAddress(): string {
  return `${usePathname()}${useSearch()}`;
}
