import compress from '@fastify/compress';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { adminPlugin } from './admin';
import { audioPlugin } from './audio/routes';
import { credentialsPlugin } from './auth/credentials';
import { oidcPlugin } from './auth/oidc/routes';
import { authPlugin } from './auth/routes';
import { sessionsPlugin } from './auth/sessions';
import { billingPlugin } from './billing/routes';
import { botCataloguePlugin } from './bots/catalogue';
import { botsPlugin } from './bots/routes';
import { LiveReplies } from './chat/liveReplies';
import { repliesPlugin } from './chat/replyRoutes';
import { chatPlugin } from './chat/routes';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { ApiError } from './errors';
import { feedbackPlugin } from './feedback/routes';
import { filesPlugin } from './files/routes';
import { createUploads } from './files/upload';
import { importsPlugin } from './imports/routes';
import { startIndexer } from './knowledge/indexer';
import { createMailer } from './mail/mailer';
import { memberBotsPlugin } from './memberBots/routes';
import { memoriesPlugin } from './memories/routes';
import { modelsPlugin } from './models/routes';
import { notificationsPlugin } from './notifications/routes';
import { apiKeysPlugin, openaiApiPlugin } from './openai/routes';
import { organizationsPlugin } from './organizations/routes';
import { AccessLog } from './plugins/accessLog';
import { decryptFieldsPlugin } from './plugins/decryptFields';
import { errorsPlugin } from './plugins/errors';
import { healthPlugin } from './plugins/health';
import { inputGuardPlugin } from './plugins/inputGuard';
import { isApiPath, staticPlugin } from './plugins/static';
import { tenancyPlugin } from './plugins/tenancy';
import { projectsPlugin } from './projects/routes';
import { promptsPlugin } from './prompts/routes';
import { repeat } from './repeat';
import { openaiTranslation } from './replies/engines/openai';
import { botProviders, botTitlers } from './replies/engines/registry';
import { loadSecrets } from './security/secrets';
import { seed } from './seed/seed';
import { sharesPlugin } from './shares/routes';
import { toolCallsPlugin } from './tools/routes';
import { translatePlugin } from './translation/routes';
import { createTranslator, libreTranslate } from './translation/translator';
import { usersPlugin } from './users/routes';

export interface AppOptions {
  config: Config;
  logger?: boolean;
}

/** Builds the whole server on its database; tests start it with their own config. */
export async function buildApp({ config, logger = true }: AppOptions): Promise<FastifyInstance> {
  const { trustProxy } = config;
  const app = Fastify({
    logger: logger
      ? { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] }
      : false,
    logController: new AccessLog(),
    bodyLimit: 64 * 1024,
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // Unknown fields are refused, not silently dropped; types are not coerced.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });

  const db = await openDatabase(config, async (fresh) => {
    await migrate(fresh);
    await seed(fresh);
  });
  app.addHook('onClose', () => db.close());
  // PGlite has no autovacuum: keep the planner's statistics fresh ourselves (search plans need them).
  if (!config.databaseUrl)
    repeat(app, 10 * 60_000, 'analyzing the embedded database', () => db.exec('analyze'));

  const provider = config.libreTranslateUrl
    ? libreTranslate(config.libreTranslateUrl)
    : config.openai.baseUrl
      ? openaiTranslation(config.openai)
      : null;
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('liveReplies', new LiveReplies(config.replyUnattendedMs));
  app.decorate('secrets', loadSecrets(config.dataDir, config));
  app.decorate(
    'sendMail',
    createMailer({ ...config, from: config.mailFrom, log: (line) => app.log.info(line) }),
  );
  app.decorate(
    'translator',
    createTranslator(db, provider, {
      memorySize: config.translationMemorySize,
      log: (message, error) => app.log.warn({ err: error }, message),
    }),
  );
  app.decorate('botProviders', botProviders(app));
  app.decorate('botTitlers', botTitlers(app));
  app.decorate('uploads', createUploads(app));

  await app.register(errorsPlugin);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        // Replies read aloud play the server's audio from a blob: URL.
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  if (config.publicOrigins.length) {
    await app.register(cors, {
      origin: config.publicOrigins,
      credentials: true,
      allowedHeaders: ['authorization', 'organization', 'content-type'],
    });
  }
  await app.register(rateLimit, {
    max: config.rateLimits.apiPerMinute,
    // Pages, assets and /health are not the API: loading the app never spends its limit.
    allowList: (request) => !isApiPath(request.url),
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, `Too many requests. Try again in ${context.after}.`, 'RATE_LIMITED') as never,
  });
  await app.register(compress, { threshold: 1024 });
  await app.register(tenancyPlugin);
  await app.register(decryptFieldsPlugin);
  await app.register(inputGuardPlugin);

  await app.register(sessionsPlugin);
  await app.register(credentialsPlugin);
  await app.register(botCataloguePlugin);

  await app.register(healthPlugin);
  await app.register(authPlugin);
  await app.register(oidcPlugin);
  await app.register(organizationsPlugin);
  await app.register(botsPlugin);
  await app.register(modelsPlugin);
  await app.register(usersPlugin);
  await app.register(billingPlugin);
  await app.register(notificationsPlugin);
  await app.register(memoriesPlugin);
  await app.register(promptsPlugin);
  await app.register(translatePlugin);
  await app.register(filesPlugin);
  await app.register(chatPlugin);
  await app.register(projectsPlugin);
  await app.register(memberBotsPlugin);
  await app.register(importsPlugin);
  await app.register(repliesPlugin);
  await app.register(feedbackPlugin);
  await app.register(toolCallsPlugin);
  await app.register(apiKeysPlugin);
  await app.register(openaiApiPlugin, { prefix: '/v1' });
  await app.register(sharesPlugin);
  await app.register(audioPlugin);
  await app.register(adminPlugin, { prefix: '/api/v1/admin' });
  if (config.staticDir) await app.register(staticPlugin, { root: config.staticDir });
  // Every node indexes knowledge documents: whichever claims a job first.
  await startIndexer(app);
  return app;
}
