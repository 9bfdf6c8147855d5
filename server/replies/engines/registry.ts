import type { FastifyInstance } from 'fastify';
import { resolveProvider } from '../../providers/store';
import type { Provider } from '../../providers/types';
import { builtinProvider } from './builtin';
import { openaiProvider } from './openai';

/** The bot platforms by name: chat replies and the admin area's "Try it" run bots through these. */
export function botProviders(app: FastifyInstance): Record<string, Provider> {
  return {
    builtin: builtinProvider(app.translator, app.config.builtinTokenDelayMs),
    openai: openaiProvider(app.config.openai, resolveProvider(app)),
  };
}
