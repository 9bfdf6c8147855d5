import type { FastifyInstance } from 'fastify';
import { resolveProvider } from '../../providers/store';
import type { Provider, TitleWriter } from '../../providers/types';
import { builtinProvider } from './builtin';
import { imageProvider } from './image';
import { openaiProvider, openaiTitle } from './openai';

/** The bot platforms by name: chat replies and the admin area's "Try it" run bots through these. */
export function botProviders(app: FastifyInstance): Record<string, Provider> {
  return {
    builtin: builtinProvider(app.translator, app.config.builtinTokenDelayMs),
    openai: openaiProvider(app.config.openai, resolveProvider(app)),
    image: imageProvider,
  };
}

/** The platforms whose bots can name a conversation with their model (the others keep its first line). */
export function botTitlers(app: FastifyInstance): Record<string, TitleWriter> {
  return { openai: openaiTitle(app.config.openai, resolveProvider(app)) };
}
