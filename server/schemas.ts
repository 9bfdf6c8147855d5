import { ApiError } from './errors';

/** Shared pieces of the admin routes' JSON schemas. */
export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

/**
 * An object schema that takes no other properties. Its properties and required names keep their literal
 * types, so a route's type provider reads the body's type from it.
 */
export const objectOf = <
  const P extends Record<string, unknown>,
  const R extends readonly (keyof P & string)[] = readonly [],
>(
  properties: P,
  required: R = [] as unknown as R,
  minProperties = 0,
) => ({ type: 'object', additionalProperties: false, required, minProperties, properties }) as const;

/** A name as people see it: whitespace folded, trimmed, not empty. */
export function cleanName(value: string, field = 'name', max = 80): string {
  const name = value
    .normalize('NFKC')
    .replace(/\p{Cc}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  if (!name) throw new ApiError(400, `Please fill in ${field}.`, 'INVALID_INPUT', field);
  if ([...name].length > max)
    throw new ApiError(400, `${field} must be at most ${max} characters.`, 'INVALID_INPUT', field);
  return name;
}

export const uniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** A page cursor: opaque to clients, checked when read back. */
export const encodeCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export function decodeCursor<T>(cursor: string, valid: (value: unknown) => value is T): T {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (valid(value)) return value;
  } catch {
    // fall through
  }
  throw new ApiError(400, 'This list cannot be continued. Load it again.', 'INVALID_CURSOR', 'cursor');
}

/** The answer of a route that only did what it was asked: `{ success: true }`. */
export const successResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['success'],
  properties: { success: { type: 'boolean' } },
} as const;
