import type { Encrypt } from './sensitiveFields';
import { EncryptionError } from './sensitiveFields';

/** RSA-2048 with OAEP-SHA-256 carries at most 256 - 2 * 32 - 2 bytes. */
const maxBytes = 190;

/** jsencrypt pads the string's char codes, so hand it the UTF-8 bytes as a binary string. */
function utf8Binary(value: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return binary;
}

/**
 * Builds the lazy encryptor: jsencrypt and the server's public key are fetched on first use only,
 * and once (a failed attempt is retried on the next use).
 */
export function createEncryptorLoader(fetchPublicKey: () => Promise<string>): () => Promise<Encrypt> {
  let loading: Promise<Encrypt> | undefined;
  return () => {
    loading ??= (async () => {
      const [{ JSEncrypt }, key] = await Promise.all([import('jsencrypt'), fetchPublicKey()]);
      const rsa = new JSEncrypt();
      rsa.setPublicKey(key);
      return (value: string) => {
        const binary = utf8Binary(value);
        if (binary.length > maxBytes) {
          throw new EncryptionError(`This value is too long to send securely (at most ${maxBytes} bytes).`);
        }
        const encrypted = rsa.encryptOAEP(binary);
        if (!encrypted)
          throw new EncryptionError('This value could not be encrypted. Reload the page and try again.');
        return encrypted;
      };
    })();
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}
