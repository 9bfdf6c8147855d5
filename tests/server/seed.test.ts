import { describe, expect, it } from 'vitest';
import { checkPassword } from '../../server/security/passwords';
import { adminUser, demoUser, seededHashes } from '../../server/seed/seed';

describe('the seeded demo accounts', () => {
  it('take the published passwords (their hashes are computed once, not at each start)', async () => {
    expect(await checkPassword(seededHashes.demo, demoUser.password)).toBe(true);
    expect(await checkPassword(seededHashes.admin, adminUser.password)).toBe(true);
    expect(await checkPassword(seededHashes.demo, adminUser.password)).toBe(false);
  });
});
