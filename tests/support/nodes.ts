import { generateKeyPairSync } from 'node:crypto';
import { startApp, type TestServer } from './app';
import { type RunningPostgres, startPostgres } from './postgres';

export interface Nodes {
  postgres: RunningPostgres;
  a: TestServer;
  b: TestServer;
  stop: () => Promise<void>;
}

/**
 * Two nodes in this process on one throwaway PostgreSQL, sharing their secrets through the environment
 * as a deployment's nodes do; `env` is given to both.
 */
export async function startTwoNodes(env: Record<string, string> = {}): Promise<Nodes> {
  const postgres = await startPostgres();
  const shared = {
    DATABASE_URL: postgres.url,
    JWT_SECRET: 'the same secret on every node',
    RSA_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
    ...env,
  };
  const [a, b] = await Promise.all([startApp(shared), startApp(shared)]);
  return {
    postgres,
    a,
    b,
    stop: async () => {
      await Promise.all([a.close(), b.close()]);
      postgres.stop();
    },
  };
}
