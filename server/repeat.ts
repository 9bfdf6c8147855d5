import type { FastifyInstance } from 'fastify';

/** Runs `task` every `intervalMs` while the app is open; a failure is logged and the next run goes on. */
export function repeat(app: FastifyInstance, intervalMs: number, what: string, task: () => Promise<unknown>) {
  const timer = setInterval(() => {
    task().catch((error) => app.log.warn({ err: error }, `${what} failed`));
  }, intervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
