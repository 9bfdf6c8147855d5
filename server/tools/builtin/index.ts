import type { FastifyInstance } from 'fastify';
import type { Owner } from '../../owner';
import type { StepOwner } from '../steps';
import type { ToolInfo } from '../types';
import { calculatorTool } from './calculator';
import { currentTimeTool } from './currentTime';
import { fetchUrlTool } from './fetchUrl';
import { generateImageTool, imagePromptMax, imageSizes } from './generateImage';
import { searchKnowledgeTool } from './searchKnowledge';
import { type WebSearchSetup, type WebSources, webSearchTool } from './webSearch';

const builtin = (name: string, description: string, parameters: Record<string, unknown>): ToolInfo => ({
  name,
  description,
  source: 'builtin',
  parameters,
});

/** The tools Parley runs itself, as the admin area lists them and a model is offered them. */
export const builtinToolInfos: ToolInfo[] = [
  builtin('calculator', 'Exact decimal arithmetic: + - * / ^ % and parentheses. Returns the result.', {
    type: 'object',
    properties: {
      expression: { type: 'string', description: 'The expression to calculate, e.g. (1.5 + 2) * 4' },
    },
    required: ['expression'],
    additionalProperties: false,
  }),
  builtin('current_time', 'The current date and time, in UTC and optionally in a time zone.', {
    type: 'object',
    properties: {
      timezone: { type: 'string', description: 'An IANA time zone, e.g. Europe/Paris. Default: UTC.' },
    },
    additionalProperties: false,
  }),
  builtin('fetch_url', 'Reads a public web page (http or https) and returns its text, at most 1 MB of it.', {
    type: 'object',
    properties: { url: { type: 'string', description: 'The address of the page, http:// or https://' } },
    required: ['url'],
    additionalProperties: false,
  }),
  builtin(
    'generate_image',
    'Draws an image from a description with the organization’s image model. The image is shown to the user with your reply.',
    {
      type: 'object',
      properties: {
        prompt: {
          type: 'string',
          description: `What the image shows, in detail (at most ${imagePromptMax} characters)`,
        },
        size: {
          type: 'string',
          enum: [...imageSizes],
          description: 'width x height in pixels: square, portrait or landscape; auto lets the model choose',
        },
      },
      required: ['prompt'],
      additionalProperties: false,
    },
  ),
  builtin(
    'web_search',
    "Searches the web with the organization's search engine and returns the top results: title, address and snippet, numbered to cite as [n].",
    {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to search for, as typed in a search engine' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  ),
  builtin(
    'search_knowledge',
    'Searches the knowledge bases of this bot and returns the passages that best answer the query.',
    {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in a few words or a question' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  ),
];

/** Runs a built-in tool for the reply `reply` (null: kept nowhere, the admin's "Try it"): its text for the model, or a ToolError. */
export type BuiltinRun = (
  args: Record<string, unknown>,
  signal: AbortSignal,
  reply: StepOwner | null,
) => Promise<string>;

/**
 * The built-in tools for one reply of a bot: `search_knowledge` only where the bot has knowledge
 * bases (it would find nothing elsewhere), `web_search` only where its organization has a search
 * engine (`web`: it, and where the reply's citations of web pages are kept).
 */
export function builtinRunners(
  app: FastifyInstance,
  owner: Owner,
  knowledge: string[],
  web: { setup: WebSearchSetup; sources: WebSources } | null,
): Record<string, BuiltinRun> {
  return {
    calculator: (args) => calculatorTool(args),
    current_time: (args) => currentTimeTool(args),
    fetch_url: fetchUrlTool(app.config.allowPrivateProviderUrls),
    generate_image: generateImageTool(app, owner),
    ...(knowledge.length ? { search_knowledge: searchKnowledgeTool(app, owner, knowledge) } : {}),
    ...(web ? { web_search: webSearchTool(web.setup, web.sources) } : {}),
  };
}
