import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { organizationMachine } from '../../../../machines/organization';
import type { ActorRequest, ModelEvent, PathWorld } from '../runner';

const requests: Record<string, ActorRequest> = {
  // An organization nobody has: the server says so (404).
  fetchOrganization: { method: 'GET', path: /^\/api\/v1\/organization\/[^/]+$/, fails: 'server' },
};

/**
 * The organization check on landing, on an organization's own host name: Chromium takes any
 * `*.localhost` name to this machine, and the first of three labels names the organization (the seed
 * has `acme`). A path that fails opens a host whose organization does not exist.
 */
export const organizationBrowserModel = {
  name: 'organization',
  chainWalks: true,
  machine: organizationMachine,
  input: { host: 'acme.parley.localhost', defaultOrganization: 'app' },
  events: [
    {
      type: 'xstate.done.actor.fetchOrganization',
      output: { _id: 'o1', subdomain: 'acme', name: 'Acme Corporation' },
    },
    { type: 'xstate.error.actor.fetchOrganization', error: new Error('Not found') },
  ] as ModelEvent[],
  requests,
  start: async (world: PathWorld) => {
    const unknown = world.events.some((event) => event.type === 'xstate.error.actor.fetchOrganization');
    await world.page.goto(
      `http://${unknown ? 'nowhere' : 'acme'}.parley.localhost:${world.server.port}/landing`,
    );
  },
  perform: async () => {},
  expectScreen: async (world: PathWorld, snapshot: AnyMachineSnapshot) => {
    const { page } = world;
    const register = page.getByRole('link', { name: 'Register', exact: true });
    const stored = await page.evaluate(() =>
      JSON.parse(localStorage.getItem('currentOrganization') ?? 'null'),
    );
    if (snapshot.matches('fetching')) {
      // Nothing behind the check yet, not even the header.
      expect(await page.getByRole('status').textContent()).toBe('Loading…');
      expect(await page.getByRole('banner').count()).toBe(0);
      expect(await register.count()).toBe(0);
    } else if (snapshot.matches('allowed')) {
      // The organization's own name is the brand, and it is kept for the API calls that follow.
      expect(await page.getByRole('banner').getByRole('link', { name: 'Acme Corporation' }).isVisible()).toBe(
        true,
      );
      expect(await register.isVisible()).toBe(true);
      expect(stored?.subdomain).toBe('acme');
    } else {
      // Blocked with no message: only the header stays; no organization is kept.
      expect(
        await page.getByRole('banner').getByRole('link', { name: 'Parley', exact: true }).isVisible(),
      ).toBe(true);
      expect(await register.count()).toBe(0);
      expect(await page.getByRole('status').count()).toBe(0);
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      expect(stored).toBeNull();
    }
  },
};
