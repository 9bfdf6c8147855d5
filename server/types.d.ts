import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Codes } from './auth/codes';
import type { LoginLimits } from './auth/loginLimits';
import type { SignedInWith } from './auth/sessions';
import type { TokenClaims } from './auth/tokens';
import type { BotCatalogue } from './bots/catalogue';
import type { LiveReplies } from './chat/liveReplies';
import type { Config } from './config';
import type { Db } from './db/database';
import type { Uploads } from './files/upload';
import type { SendMail } from './mail/mailer';
import type { Owner } from './owner';
import type { Provider, TitleWriter } from './providers/types';
import type { Counters } from './security/counters';
import type { Secrets } from './security/secrets';
import type { Translator } from './translation/translator';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    secrets: Secrets;
    sendMail: SendMail;
    translator: Translator;
    sessions: {
      /** Starts a session and answers its token. */
      open(owner: Owner, via: SignedInWith): Promise<string>;
      /** A fresh token (new expiry) of the same session. */
      renew(claims: TokenClaims): Promise<string>;
      /** The request's valid token claims (signature, expiry, organization, live session), or null. */
      claims(request: FastifyRequest): Promise<TokenClaims | null>;
      revoke(sessionId: string): Promise<void>;
      /** Drops what every node keeps about the user's sessions (after a suspension or role change). */
      forget(userId: string): Promise<void>;
      /** Ends every session of the user, but `except` when given. */
      revokeAll(owner: Owner, except?: string): Promise<void>;
      /**
       * SSO became required: ends the organization's password sessions but owners' (who keep their
       * password as the way in), on every node; part of `db`'s transaction. Answers how many ended.
       */
      endPasswordSessions(db: Db, tenant: string): Promise<number>;
    };
    /** The replies this node is generating; drained on shutdown. */
    liveReplies: LiveReplies;
    codes: Codes;
    /** The per-organization bot list of `GET /api/v1/bot`, kept briefly per node. */
    botCatalogue: BotCatalogue;
    /** Runs bots: the platforms by name (builtin, openai), organizations' providers resolved at call time. */
    botProviders: Record<string, Provider>;
    /** Names conversations with a model bot's own model, by platform (`openai`). */
    botTitlers: Record<string, TitleWriter>;
    counters: Counters;
    /** Receives uploaded files for every route that takes them, with one extractor per node. */
    uploads: Uploads;
    loginLimits: LoginLimits;
    /** Whether `password` is the signed-in user's, checked under the login limits (429 past them). */
    checkAccountPassword(request: FastifyRequest, password: string): Promise<boolean>;
    /** preHandler: a valid token of the request's organization, or 401. */
    authenticate: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** The organization (subdomain) of the request: its Organization header, or its host, or 'app'. */
    tenant: string;
    auth: { userId: string; tenant: string; sessionId: string };
    /** The member's role in the request's organization, read by the admin area's role check. */
    role: 'owner' | 'admin' | 'member';
  }
  interface FastifyContextConfig {
    /** The route answers any organization header, known or not (the organization lookup itself). */
    anyTenant?: boolean;
    /** What an undecryptable sensitive field answers: the same as the route's other bad input. */
    decryptFailure?: { status: number; error: string; code: string };
    /** The body has no RSA-encrypted fields (Parley's OpenAI-compatible API: any OpenAI client calls it). */
    plainBody?: boolean;
  }
}
