import autocannon from 'autocannon';
import { call, signUp, startApp } from '../../tests/server/support/app';
import { ms, percentile } from './stats';

/** `GET /api/v1/bot` throughput with a valid token, and login latency (argon2id dominates it). */
export async function printApiFigures(): Promise<void> {
  const server = await startApp({ RATE_LIMIT_LOGIN_FAILURES: '1000' });
  try {
    const user = await signUp(server);
    const result = await autocannon({
      url: `${server.url}/api/v1/bot`,
      headers: { authorization: `Bearer ${user.token}` },
      connections: 50,
      duration: 10,
    });
    console.log('## API (in-process Fastify on PGlite, loopback, 50 connections, 10 s)');
    console.log(
      `GET /api/v1/bot: ${Math.round(result.requests.average)} requests/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors}, non-2xx ${result.non2xx}`,
    );

    const latencies: number[] = [];
    for (let round = 0; round < 40; round += 1) {
      const started = performance.now();
      const answer = await call(server, '/auth/login', {
        body: { email: user.encrypt(user.email), password: user.encrypt(user.password) },
      });
      latencies.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
    }
    console.log(
      `POST /auth/login: p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} (argon2id m=19 MiB t=2 p=1 and RSA-OAEP decryption dominate)`,
    );
  } finally {
    await server.close();
  }
}
