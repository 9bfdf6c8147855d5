import type { ToolInfo } from '../types';

/**
 * The tools Parley runs itself, as a bot's tool list and the model see them. `search_knowledge` is
 * listed always; it answers only for bots that have knowledge bases.
 */
export const builtinToolInfos: ToolInfo[] = [
  {
    name: 'calculator',
    description:
      'Evaluates an arithmetic expression exactly (+, -, *, /, ^, parentheses, sqrt, percentages) and answers the result.',
    source: 'builtin',
    parameters: {
      type: 'object',
      properties: {
        expression: { type: 'string', description: 'The expression, for example "(12.5 * 4) / 3".' },
      },
      required: ['expression'],
      additionalProperties: false,
    },
  },
  {
    name: 'current_time',
    description: 'Answers the current date and time, in a time zone if one is given (else UTC).',
    source: 'builtin',
    parameters: {
      type: 'object',
      properties: {
        timeZone: { type: 'string', description: 'An IANA time zone, for example "Europe/Paris".' },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'fetch_url',
    description:
      'Reads a public web page or text file (http or https, at most 1 MB) and answers its text; HTML is reduced to its readable text.',
    source: 'builtin',
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The address, starting with http:// or https://.' },
      },
      required: ['url'],
      additionalProperties: false,
    },
  },
  {
    name: 'search_knowledge',
    description:
      "Searches the bot's knowledge bases and answers the passages that match best, each with its document's name.",
    source: 'builtin',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in a few words or a question.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
];
