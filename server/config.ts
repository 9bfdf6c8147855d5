import { resolve } from 'node:path';

/** Every setting the server reads from the environment, in one place. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Built web app to serve; absent means API only. */
  staticDir: string | undefined;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    staticDir: env.STATIC_DIR === '' ? undefined : resolve(env.STATIC_DIR ?? './dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
