import { organizationMachine } from '../../../machines/organization';
import { organizationActions } from '../../../src/app/machineActions';
import { createStoredValues } from '../../../src/app/storedValues';
import type { MachineModel, World } from '../harness';
import { expect } from '../harness';
import { done, failed, pending } from './shared';

const log = (world: World) => (message: string) => world.calls.push(`log: ${message}`);

export const organizationModel: MachineModel = {
  name: 'organization',
  provide: (world) =>
    organizationMachine.provide({
      actors: { fetchOrganization: pending() },
      actions: organizationActions(createStoredValues(world.storage), log(world)),
    }),
  inputs: [
    { host: 'localhost:3000', defaultOrganization: 'app' },
    { host: 'localhost:3000', defaultOrganization: 'acme' },
    { host: '127.0.0.1:3000', defaultOrganization: 'acme' },
    { host: 'acme.parley.localhost:3000', defaultOrganization: 'app' },
    { host: 'parley.example', defaultOrganization: 'acme' },
  ],
  events: [
    done('fetchOrganization', { _id: 'o1', subdomain: 'acme', name: 'Acme Corporation' }),
    failed('fetchOrganization'),
  ],
  check: (snapshot, world) => {
    const stored = JSON.parse(world.storage.getItem('currentOrganization') ?? 'null');
    if (snapshot.context.subdomain === 'app') expect(snapshot.matches('allowed')).toBe(true);
    if (snapshot.matches('allowed')) expect(stored?.subdomain ?? 'app').toBe(snapshot.context.subdomain);
    if (snapshot.matches('blocked')) {
      expect(stored).toBeNull();
      expect(world.calls).toContain('log: Organization check failed');
    }
  },
};
