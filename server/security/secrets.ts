import { constants, generateKeyPairSync, privateDecrypt, randomBytes } from 'node:crypto';
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

/** The JWT secret and the RSA key pair: from the environment, or generated on first start and kept in dataDir. */
export function loadSecrets(dataDir: string, jwtSecret: string | undefined): Secrets {
  mkdirSync(dataDir, { recursive: true });
  const secret = jwtSecret ?? keep(join(dataDir, 'jwt-secret'), () => randomBytes(48).toString('base64url'));
  let publicKeyPem = '';
  const privateKeyPem = keep(join(dataDir, 'rsa-private.pem'), () => {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    writeFileSync(join(dataDir, 'rsa-public.pem'), pair.publicKey);
    return pair.privateKey;
  });
  publicKeyPem = readFileSync(join(dataDir, 'rsa-public.pem'), 'utf8');
  return {
    jwtSecret: new TextEncoder().encode(secret),
    publicKeyPem,
    decrypt: (base64) =>
      privateDecrypt(
        { key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(base64, 'base64'),
      ).toString('utf8'),
  };
}
