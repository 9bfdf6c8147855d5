import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { botsChannel } from '../db/channels';

export interface BotCatalogue {
  get(tenant: string): unknown[] | undefined;
  set(tenant: string, bots: unknown[]): void;
  /** Drops the organization's list on this node at once and on every other node (NOTIFY). */
  forget(tenant: string): Promise<void>;
}

/**
 * `GET /api/v1/bot`'s answer per organization, kept briefly on each node. An admin's edit forgets it
 * here before answering and on the other nodes by NOTIFY; the TTL bounds the lag should one be lost.
 */
export const botCataloguePlugin = fp(async (app) => {
  const ttlMs = 10_000;
  const lists = new Map<string, { bots: unknown[]; until: number }>();
  const stopListening = await app.db.listen(botsChannel, (tenant) => lists.delete(tenant));
  app.addHook('onClose', () => stopListening());
  app.decorate('botCatalogue', {
    get(tenant) {
      const cached = lists.get(tenant);
      return cached && cached.until > Date.now() ? cached.bots : undefined;
    },
    set(tenant, bots) {
      lists.set(tenant, { bots, until: Date.now() + ttlMs });
    },
    async forget(tenant) {
      lists.delete(tenant);
      await app.db.query('select pg_notify($1, $2)', [botsChannel, tenant]);
    },
  } satisfies BotCatalogue);
}) as FastifyPluginAsync;
