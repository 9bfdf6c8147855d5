import {
  constants,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Secrets {
  jwtSecret: Uint8Array;
  publicKeyPem: string;
  /** RSA-OAEP-SHA256 over UTF-8, as the web app's jsencrypt sends it; throws on anything else. */
  decrypt(base64: string): string;
}

/** Reads a secret file of the data folder, creating it once (owner-only) when it is missing. */
function keep(file: string, create: () => string): string {
  if (!existsSync(file)) writeFileSync(file, create(), { mode: 0o600 });
  return readFileSync(file, 'utf8');
}

/**
 * The JWT secret and the RSA key pair: from the environment (every node of a cluster shares them),
 * or generated on first start and kept in dataDir.
 */
export function loadSecrets(
  dataDir: string,
  given: { jwtSecret: string | undefined; rsaPrivateKey: string | undefined },
): Secrets {
  mkdirSync(dataDir, { recursive: true });
  const secret =
    given.jwtSecret ?? keep(join(dataDir, 'jwt-secret'), () => randomBytes(48).toString('base64url'));
  const privateKeyPem =
    given.rsaPrivateKey ??
    keep(join(dataDir, 'rsa-private.pem'), () =>
      generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    );
  const privateKey = createPrivateKey(privateKeyPem);
  return {
    jwtSecret: new TextEncoder().encode(secret),
    publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
    decrypt: (base64) =>
      privateDecrypt(
        { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(base64, 'base64'),
      ).toString('utf8'),
  };
}
