import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const issuer = 'parley';
const audience = 'parley-app';
const algorithm = 'HS256';
export const tokenLifetimeHours = 12;

export interface TokenClaims {
  userId: string;
  tenant: string;
  /** The session the token belongs to: revoking it ends the token. */
  sessionId: string;
}

/** A session token: HS256, 12 hours, bound to one organization and one session. */
export function signToken(secret: Uint8Array, claims: TokenClaims): Promise<string> {
  // A nonce: two tokens of one session signed within the same second still differ.
  return new SignJWT({ org: claims.tenant, nonce: randomUUID() })
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setSubject(claims.userId)
    .setJti(claims.sessionId)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${tokenLifetimeHours}h`)
    .sign(secret);
}

/** The claims of a valid token, or null: wrong algorithm, signature, issuer, audience or expiry all fail alike. */
export async function readToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: [algorithm], issuer, audience });
    if (typeof payload.sub !== 'string' || typeof payload.org !== 'string' || typeof payload.jti !== 'string')
      return null;
    return { userId: payload.sub, tenant: payload.org, sessionId: payload.jti };
  } catch {
    return null;
  }
}
