/** Encrypts one value; throws an EncryptionError when it cannot be sent safely. */
export type Encrypt = (value: string) => string;

/** Always encrypted, multipart bodies included (seed-spec §7). */
const alwaysEncrypted = ['password', 'newPassword'];
/** Encrypted in JSON bodies only; multipart bodies are untouched by this step. */
const jsonOnlyEncrypted = ['name', 'address', 'postalCode', 'city', 'country', 'email', 'taxNo'];

export class EncryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionError';
  }
}

function needsEncryption(body: Record<string, unknown> | FormData): string[] {
  if (body instanceof FormData) return alwaysEncrypted.filter((field) => typeof body.get(field) === 'string');
  return [...alwaysEncrypted, ...jsonOnlyEncrypted].filter((field) => typeof body[field] === 'string');
}

/** Returns a copy of the body with its sensitive fields encrypted; the caller's object is left as it was. */
export async function encryptSensitiveFields<B extends Record<string, unknown> | FormData>(
  body: B,
  loadEncrypt: () => Promise<Encrypt>,
): Promise<B> {
  const fields = needsEncryption(body);
  if (fields.length === 0) return body;
  const encrypt = await loadEncrypt();
  if (body instanceof FormData) {
    const copy = new FormData();
    for (const [key, value] of body.entries()) {
      copy.append(key, fields.includes(key) && typeof value === 'string' ? encrypt(value) : value);
    }
    return copy as B;
  }
  const copy: Record<string, unknown> = { ...body };
  for (const field of fields) copy[field] = encrypt(copy[field] as string);
  return copy as B;
}
