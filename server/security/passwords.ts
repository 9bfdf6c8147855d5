import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane. (2 is Algorithm.Argon2id, a const enum.)
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, options);

// A real hash to check unknown accounts against, so they take as long as known ones.
let decoy: Promise<string> | undefined;

/** Checks a password; with no stored hash it still spends the same time, and answers false. */
export async function checkPassword(stored: string | null, password: string): Promise<boolean> {
  decoy ??= hashPassword('parley decoy password');
  try {
    const matches = await verify(stored ?? (await decoy), password);
    return stored !== null && matches;
  } catch {
    return false;
  }
}
