import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

const apiPrefixes = ['/api/', '/auth/', '/payment/', '/v1/'];
export const isApiPath = (url: string) => apiPrefixes.some((prefix) => url.startsWith(prefix));

/**
 * Serves the built app: the brotli or gzip file written at build time when the browser takes it;
 * hashed assets cached for a year, everything else revalidated. Unknown non-API GETs fall back to
 * index.html so client routes deep-link.
 */
export const staticPlugin = fp<{ root: string }>(async (app, { root }) => {
  if (!existsSync(root)) {
    app.log.warn({ root }, 'built app not found; serving the API only (run `npm run build`)');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    index: ['index.html'],
    preCompressed: true,
    setHeaders: (reply, path) => {
      reply.header(
        'cache-control',
        /[/\\]assets[/\\]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || isApiPath(request.url)) {
      return reply.code(404).send({ error: 'Not found', code: 'NOT_FOUND' });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}) as FastifyPluginAsync<{ root: string }>;
