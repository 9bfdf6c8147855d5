import { jwtVerify, SignJWT } from 'jose';

const issuer = 'parley';
const audience = 'parley-app';
const algorithm = 'HS256';

export interface TokenClaims {
  userId: string;
  tenant: string;
  /** The user's token version when the token was issued. */
  version: number;
}

/** A session token: HS256, 12 hours, bound to one organization and one token version. */
export function signToken(secret: Uint8Array, claims: TokenClaims): Promise<string> {
  return new SignJWT({ org: claims.tenant, ver: claims.version })
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('12h')
    .sign(secret);
}

/** The claims of a valid token, or null: wrong algorithm, signature, issuer, audience or expiry all fail alike. */
export async function readToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: [algorithm], issuer, audience });
    if (typeof payload.sub !== 'string' || typeof payload.org !== 'string' || typeof payload.ver !== 'number')
      return null;
    return { userId: payload.sub, tenant: payload.org, version: payload.ver };
  } catch {
    return null;
  }
}
