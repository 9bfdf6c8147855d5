/** What stands in for a secret in what leaves the page. */
export const redacted = '«redacted»';

/** Names of values that are secrets wherever they appear: in an event, a context, an actor's input or output. */
const secretKey = /password|passcode|otp|^code$|token|secret|api_?key|^key$|authorization|cookie/i;

/**
 * A token is also an invoked actor's output (`login`, `signup`) before the context keeps it under `token`:
 * anything shaped like a JSON Web Token is one, whatever its key.
 */
const tokenShaped = /^eyJ[\w-]*\.[\w-]+/;

/**
 * A plain copy of `value` (as JSON would carry it) with every secret replaced: the inspector's window is
 * another origin, and a password, one-time code or token must not reach it.
 */
export function redactSecrets<T>(value: T): T {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(value, (key, inner: unknown) => {
    if (key && secretKey.test(key) && inner !== null && inner !== undefined && inner !== '') return redacted;
    if (typeof inner === 'string' && tokenShaped.test(inner)) return redacted;
    if (typeof inner === 'object' && inner !== null) {
      if (seen.has(inner)) return '[circular]';
      seen.add(inner);
    }
    return typeof inner === 'function' ? undefined : inner;
  });
  return text === undefined ? value : JSON.parse(text);
}
