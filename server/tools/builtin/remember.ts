import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors';
import { memoryMaxLength, saveMemory } from '../../memories/recall';
import type { Owner } from '../../owner';
import { ToolError, type ToolInfo } from '../types';
import { stringArgument } from './arguments';

/**
 * `remember`: a built-in of the member rather than of the bot — offered to every model bot's reply in
 * the app while memory is on for the organization and the member, whatever tools the bot has.
 */
export const rememberToolInfo: ToolInfo = {
  name: 'remember',
  description:
    'Saves one short fact about the user to remember in later conversations: a lasting preference, their circumstances or ongoing work. Use it when they ask you to remember something, or when a fact will clearly help later; never for secrets such as passwords. The user sees what is saved and can undo it.',
  source: 'builtin',
  parameters: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        description: `The fact, in one sentence written about the user (at most ${memoryMaxLength} characters), e.g. "Prefers answers in French."`,
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
};

/**
 * Saves the fact as the member's memory (source `model`), in the conversation's project when it has
 * one. Its result is `{"_id","text"}` as JSON: the app shows "Saved to memory" with Undo (deleting it).
 */
export function rememberTool(app: FastifyInstance, owner: Owner, project: string | null) {
  return async (args: Record<string, unknown>): Promise<string> => {
    const text = stringArgument(args, 'text', 'remember');
    try {
      const memory = await saveMemory(app, owner, { text, project, source: 'model' });
      return JSON.stringify({ _id: memory._id, text: memory.text });
    } catch (error) {
      // Too long, already kept, memory full: the model reads why and goes on.
      if (error instanceof ApiError) throw new ToolError(error.message);
      throw error;
    }
  };
}
