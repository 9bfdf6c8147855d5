import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** A host that cannot carry an organization's label: `localhost…` and IP addresses stand for the default one. */
const labelless = (hostname: string) =>
  hostname.startsWith('localhost') || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;

/**
 * The address people open an organization at, for links in mails: its label in front of
 * `PUBLIC_URL` (https://parley.example → https://acme.parley.example), the same on every node; or,
 * without it, the address the request came to (behind a trusted proxy, the one asked of the proxy)
 * with the organization's label in place of the first (a host of more than two labels names one).
 */
export function organizationAddress(
  config: Pick<Config, 'publicUrl'>,
  request: Pick<FastifyRequest, 'protocol' | 'host'>,
  tenant: string,
): URL {
  const site = new URL(config.publicUrl ?? `${request.protocol}://${request.host}`);
  if (labelless(site.hostname)) return site;
  const labels = site.hostname.split('.');
  if (!config.publicUrl && labels.length > 2) labels.shift();
  // 'app' is no organization: its address is the site's own.
  if (tenant !== 'app') labels.unshift(tenant);
  site.hostname = labels.join('.');
  return site;
}
