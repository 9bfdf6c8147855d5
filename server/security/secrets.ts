import {
  constants,
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
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
  /** AES-256-GCM for secrets kept in the database (provider API keys), bound to `context` (the tenant). */
  seal(plain: string, context: string): string;
  /** The plain text of `seal`; throws when the sealed value or its context was altered. */
  unseal(sealed: string, context: string): string;
}

const sealVersion = 'v1';

/** The 256-bit key that seals stored secrets: PROVIDER_KEY_SECRET, or else derived from the JWT secret (HKDF). */
function sealingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'parley', 'provider-keys aes-256-gcm', 32));
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
  given: { jwtSecret: string | undefined; rsaPrivateKey: string | undefined; providerKeySecret?: string },
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
  const key = sealingKey(given.providerKeySecret ?? secret);
  return {
    jwtSecret: new TextEncoder().encode(secret),
    publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
    decrypt: (base64) =>
      privateDecrypt(
        { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(base64, 'base64'),
      ).toString('utf8'),
    seal: (plain, context) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${sealVersion}:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
    },
    unseal: (sealed, context) => {
      const [version, data] = sealed.split(':');
      if (version !== sealVersion || !data) throw new Error('not a sealed value');
      const bytes = Buffer.from(data, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
