import autocannon from 'autocannon';
import { call, signUp, type TestServer } from '../../tests/support/app';
import { startCluster } from '../../tests/support/cluster';
import { startServer } from '../../tests/support/server';
import { ms, percentile } from './stats';

const limits = {
  RATE_LIMIT_API_PER_MINUTE: '100000000',
  RATE_LIMIT_LOGIN_FAILURES: '100000',
  LOG_LEVEL: 'info',
};

/** autocannon against `url` with the headers a browser sends, after a warm-up; one line of figures. */
async function load(url: string, token: string, seconds = 10) {
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip, deflate' };
  await autocannon({ url, headers, connections: 50, duration: 2 });
  const result = await autocannon({ url, headers, connections: 50, duration: seconds });
  return `${Math.round(result.requests.average)} requests/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`;
}

/**
 * GET /api/v1/bot through the server process (as `npm start` runs it), compressed as a browser asks;
 * login latency; and the same load through nginx in front of one node and of two.
 */
export async function printApiFigures(): Promise<void> {
  const running = await startServer({ STATIC_DIR: '', ...limits }, { compiled: true });
  const server = running as unknown as TestServer;
  try {
    const user = await signUp(server);
    console.log('## API (compiled server process on PGlite, log level info, loopback, 50 connections, 10 s)');
    console.log(`GET /api/v1/bot (br/gzip): ${await load(`${server.url}/api/v1/bot`, user.token)}`);
    const latencies: number[] = [];
    // Under the route's own limit of 60 logins a minute per address.
    for (let round = 0; round < 50; round += 1) {
      const started = performance.now();
      const answer = await call(server, '/auth/login', {
        body: { email: user.encrypt(user.email), password: user.encrypt(user.password) },
      });
      latencies.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
    }
    console.log(
      `POST /auth/login (${latencies.length} requests): p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} (argon2id m=19 MiB t=2 p=1 dominates)`,
    );
  } finally {
    await running.stop();
  }

  console.log(
    '## A cluster on PostgreSQL behind nginx (the machine, 2 cores, is the ceiling: printed, not targeted)',
  );
  for (const size of [1, 2]) {
    const cluster = await startCluster(size, limits);
    try {
      const user = await signUp({
        url: cluster.nodes[0].url,
        dataDir: cluster.nodes[0].dataDir,
      } as TestServer);
      console.log(
        `${size} node${size > 1 ? 's' : ''}: GET /api/v1/bot ${await load(`${cluster.url}/api/v1/bot`, user.token)}`,
      );
    } finally {
      await cluster.stop();
    }
  }
}
