import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/database';
import type { SendMail } from './mail/mailer';
import type { Secrets } from './security/secrets';
import type { TokenClaims } from './security/tokens';
import type { Translator } from './translation/translator';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    secrets: Secrets;
    sendMail: SendMail;
    translator: Translator;
    /** The request's valid token claims (signature, expiry, organization, version), or null. */
    sessions: {
      claims(request: FastifyRequest): Promise<TokenClaims | null>;
      /** Drops what this node remembers of a user's token version, after it changes. */
      forget(userId: string, tenant: string): void;
    };
    /** preHandler: a valid token of the request's organization, or 401. */
    authenticate: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** The organization (subdomain) the Organization header selects; 'app' when absent. */
    tenant: string;
    auth: { userId: string; tenant: string };
  }
  interface FastifyContextConfig {
    /** The route answers any organization header, known or not (the organization lookup itself). */
    anyTenant?: boolean;
    /** What an undecryptable sensitive field answers: the same as the route's other bad input. */
    decryptFailure?: { status: number; error: string; code: string };
  }
}
