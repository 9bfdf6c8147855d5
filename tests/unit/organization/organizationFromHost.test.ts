// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { organizationFromHost } from '../../../machines/organization';

describe('organizationFromHost: the organization a host names (seed-spec §4)', () => {
  it.each([
    ['localhost:3000', 'acme'],
    ['localhost', 'acme'],
    ['127.0.0.1:3000', 'acme'],
    ['127.0.0.1', 'acme'],
    ['192.168.1.20:3000', 'acme'],
    ['[::1]:3000', 'acme'],
    ['[::1]', 'acme'],
    ['[2001:db8::1]:8080', 'acme'],
    ['[2001:db8::1]', 'acme'],
  ])('%s has no organization label: the default (%s)', (host, organization) => {
    expect(organizationFromHost(host, 'acme')).toBe(organization);
  });

  it.each([
    ['acme.parley.localhost:3000', 'acme'],
    ['Acme.Parley.Example', 'acme'],
    ['app.parley.example', 'app'],
    ['app', 'app'],
    ['parley.example:443', 'app'],
    ['1.parley.example', '1'],
  ])('%s → %s', (host, organization) => {
    expect(organizationFromHost(host, 'other')).toBe(organization);
  });
});
