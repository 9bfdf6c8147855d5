import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import {
  commandOf,
  commandProblem,
  maxCommand,
  maxPromptText,
  maxPromptTitle,
  promptTextProblem,
} from '../../machines/promptText';
import { ApiError, notFound } from '../errors';
import { cleanName, idParams, objectOf, successResponse } from '../schemas';
import {
  addPrompt,
  changePrompt,
  deletePrompt,
  isOrganizationAdmin,
  listPrompts,
  maxPrompts,
  type Prompt,
  type PromptInput,
  type PromptRefusal,
  readPrompt,
} from './store';

const promptSchema = objectOf(
  {
    _id: { type: 'string' },
    command: { type: 'string' },
    title: { type: 'string' },
    text: { type: 'string' },
    visibility: { type: 'string', enum: ['private', 'organization'] },
  },
  ['_id', 'command', 'title', 'text', 'visibility'],
);

// The schema bounds what is read at all; the words are checked after cleaning (a leading `/`, spaces).
const fields = {
  command: { type: 'string', minLength: 1, maxLength: maxCommand + 8 },
  title: { type: 'string', minLength: 1, maxLength: maxPromptTitle + 8 },
  text: { type: 'string', minLength: 1, maxLength: maxPromptText + 8 },
  visibility: { type: 'string', enum: ['private', 'organization'] },
} as const;

const promptNotFound = () => notFound('Prompt');
const adminsOnly = () =>
  new ApiError(
    403,
    'Only an administrator can keep a prompt for the whole organization.',
    'FORBIDDEN',
    'visibility',
  );

const invalid = (field: string) => (problem: string | null) => {
  if (problem) throw new ApiError(400, problem, 'INVALID_INPUT', field);
};

/** A command, title and text as kept, or a 400 naming the field that is wrong. */
function cleaned(body: { command?: string; title?: string; text?: string }) {
  const command = body.command === undefined ? undefined : commandOf(body.command);
  if (command !== undefined) invalid('command')(commandProblem(command));
  const title = body.title === undefined ? undefined : cleanName(body.title, 'title', maxPromptTitle);
  const text = body.text?.trim();
  if (text !== undefined) invalid('text')(promptTextProblem(text));
  return { command, title, text };
}

function refused(refusal: PromptRefusal, command: string | undefined): never {
  if (refusal === 'full')
    throw new ApiError(
      409,
      `You keep ${maxPrompts} prompts already: delete one to save another.`,
      'TOO_MANY_PROMPTS',
    );
  throw new ApiError(
    409,
    refusal === 'taken'
      ? `You have a prompt /${command} already: choose another command.`
      : `Your organization has a prompt /${command} already: choose another command.`,
    'COMMAND_TAKEN',
    'command',
  );
}

/**
 * A member's prompt library behind `/`: their own prompts and the organization's. A member writes and
 * deletes their own; an admin (or owner) also keeps the organization's, and only they make one
 * organization-wide. Another member's private prompt does not exist (404); an organization prompt a
 * member may not change is 403.
 */
export const promptsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/api/v1/prompt',
    { schema: { response: { 200: { type: 'array', items: promptSchema } } } },
    (request) => listPrompts(app.db, request.auth),
  );

  app.post(
    '/api/v1/prompt',
    {
      schema: {
        body: objectOf(fields, ['command', 'title', 'text']),
        response: { 201: promptSchema },
      },
    },
    async (request, reply) => {
      const { command, title, text } = cleaned(request.body);
      const visibility = request.body.visibility ?? 'private';
      if (visibility === 'organization' && !(await isOrganizationAdmin(app.db, request.auth)))
        throw adminsOnly();
      const input: PromptInput = { command: command ?? '', title: title ?? '', text: text ?? '', visibility };
      const added = await addPrompt(app.db, request.auth, input);
      if (typeof added === 'string') refused(added, command);
      return reply.code(201).send(added);
    },
  );

  /**
   * Who writes a prompt: its author while it is private, an admin while it is the organization's. Its
   * author may also take back one of theirs that is no longer theirs to keep (an admin no more), and
   * only the author makes one private (it becomes theirs alone).
   */
  const mayWrite = (prompt: Prompt & { own: boolean }, admin: boolean, next: Prompt['visibility']) =>
    (prompt.own || admin) && (next === 'private' ? prompt.own : admin);

  app.patch(
    '/api/v1/prompt/:id',
    {
      schema: {
        params: idParams,
        body: objectOf(fields, [], 1),
        response: { 200: promptSchema },
      },
    },
    async (request) => {
      const prompt = await readPrompt(app.db, request.auth, request.params.id);
      if (!prompt) throw promptNotFound();
      const change = { ...cleaned(request.body), visibility: request.body.visibility };
      const admin = await isOrganizationAdmin(app.db, request.auth);
      if (!mayWrite(prompt, admin, change.visibility ?? prompt.visibility)) {
        if (!prompt.own && change.visibility === 'private')
          throw new ApiError(403, 'Only its author can make a prompt private.', 'FORBIDDEN', 'visibility');
        throw adminsOnly();
      }
      const changed = await changePrompt(app.db, request.auth, prompt._id, change);
      if (!changed) throw promptNotFound();
      if (typeof changed === 'string') refused(changed, change.command ?? prompt.command);
      return changed;
    },
  );

  app.delete(
    '/api/v1/prompt/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      const prompt = await readPrompt(app.db, request.auth, request.params.id);
      if (!prompt) throw promptNotFound();
      if (!prompt.own && !(await isOrganizationAdmin(app.db, request.auth)))
        throw new ApiError(
          403,
          'Only an administrator can delete a prompt of the organization.',
          'FORBIDDEN',
        );
      if (!(await deletePrompt(app.db, request.auth, prompt._id))) throw promptNotFound();
      return { success: true };
    },
  );
};
