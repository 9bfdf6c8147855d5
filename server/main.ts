import { buildApp } from './app';
import { loadConfig } from './config';
import { memoryFigures } from './memory';

const config = loadConfig();
const app = await buildApp({ config });

// SIGTERM drains: /ready answers 503 and new replies are refused at once; running replies may finish
// within SHUTDOWN_GRACE_SECONDS, the rest are stopped (kept, not charged); then the process exits.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal, replies: app.liveReplies.size }, 'draining, then shutting down');
    app.liveReplies
      .drain(signal === 'SIGTERM' ? config.shutdownGraceMs : 0)
      .then(() => app.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}

process.on('SIGUSR2', () => {
  memoryFigures(app.db).then(
    (memory) => app.log.info({ memory }, 'memory'),
    (error) => app.log.warn({ err: error }, 'memory figures failed'),
  );
});

// Fastify names each address it listens on (127.0.0.1, and every interface for 0.0.0.0): the loopback
// and "any" ones are logged as localhost, the address a person opens on this machine.
const loopbackOrAny = /^(127(\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\])$/;
await app.listen({
  port: config.port,
  host: config.host,
  listenTextResolver: (address) => {
    const url = new URL(address);
    if (loopbackOrAny.test(url.hostname)) url.hostname = 'localhost';
    return `Server listening at ${url.origin}`;
  },
});
