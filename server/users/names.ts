import { ApiError } from '../errors';

// Bidi embeddings, overrides, isolates and marks, and the zero-width characters: invisible, and able
// to make one name look like another.
const invisible = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u180E\u00AD]/gu;
const visible = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** NFKC-folded, then plain ASCII letters, digits, `_ . -`, 3 to 32: no look-alikes of another name. */
export function normalizeUsername(raw: string): string {
  const username = raw.normalize('NFKC').trim();
  if (!/^[A-Za-z0-9_.-]{3,32}$/.test(username)) {
    throw new ApiError(
      400,
      'A username has 3 to 32 letters (a–z), digits, dots, dashes or underscores.',
      'INVALID_USERNAME',
      'username',
    );
  }
  return username;
}

/** NFKC-folded, invisible and control characters removed, at least one visible character, at most 64. */
export function normalizeDisplayName(raw: string): string {
  const name = raw
    .normalize('NFKC')
    .replace(invisible, '')
    .replace(/\p{Cc}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  if (!visible.test(name)) {
    throw new ApiError(
      400,
      'A display name needs at least one visible character.',
      'INVALID_DISPLAY_NAME',
      'displayName',
    );
  }
  if ([...name].length > 64) {
    throw new ApiError(
      400,
      'A display name has at most 64 characters.',
      'INVALID_DISPLAY_NAME',
      'displayName',
    );
  }
  return name;
}

export const passwordMinLength = 8;
export function checkNewPassword(password: string, field = 'password') {
  if (password.length < passwordMinLength) {
    throw new ApiError(
      400,
      `A password needs at least ${passwordMinLength} characters.`,
      'WEAK_PASSWORD',
      field,
    );
  }
}
