import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { healthPlugin } from './plugins/health';
import { staticPlugin } from './plugins/static';

export interface AppOptions {
  config: Config;
  logger?: boolean;
}

/** Builds the whole server; tests start it with their own config. */
export async function buildApp({ config, logger = true }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: logger ? { level: config.logLevel } : false });
  await app.register(healthPlugin);
  if (config.staticDir) await app.register(staticPlugin, { root: config.staticDir });
  return app;
}
