import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readableProject } from '../access/projects';
import { canRun } from '../bots/availability';
import { ApiError } from '../errors';
import { createFairQueue } from '../files/fairQueue';
import type { Owner } from '../owner';
import { entryBytes, findConversations } from './archive';
import { type ArrayLimits, arrayItems } from './jsonArray';
import { conversationOf } from './sources';
import { botForImport, importConversation } from './store';

const importResult = {
  type: 'object',
  additionalProperties: false,
  required: ['imported', 'skipped', 'topics'],
  properties: {
    imported: { type: 'integer', description: 'conversations added as topics' },
    skipped: { type: 'integer', description: 'imported before, or without any message to import' },
    topics: { type: 'array', items: { type: 'string' }, description: 'the ids of the topics added' },
  },
} as const;

/** Far deeper than any conversation of ChatGPT or Claude nests, far shallower than what hurts. */
const arrayLimits: ArrayLimits = { maxDepth: 64, maxItemBytes: 64 * 1024 * 1024 };

/** The fields the form may carry besides `file`. */
const formFields = ['project', 'bot'] as const;
type Form = Partial<Record<(typeof formFields)[number], string>>;

/** Lines of `application/x-ndjson`: `{"progress": n}` as conversations are stored, then the answer. */
function progressLines(reply: FastifyReply) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  let shown = -1;
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  return {
    /** The share of the conversations stored so far (0 to 1), in hundredths, each once. */
    progress(done: number) {
      const hundredths = Math.floor(done * 100) / 100;
      if (hundredths <= shown || raw.writableEnded) return;
      shown = hundredths;
      raw.write(line({ progress: hundredths }));
    },
    end(answer: unknown) {
      if (!raw.writableEnded) raw.end(line(answer));
    },
  };
}

/**
 * Bringing one's history: `POST /api/v1/import` takes ChatGPT's export (`conversations.json`, or the
 * `.zip` that holds it) or Claude's (`conversations.json`) as multipart field `file`, with `project`
 * (a project the member may read) and `bot` (else the project's bot, else the catalogue's first).
 * The upload is kept on disk while it is read (IMPORT_MAX_MB), never whole in memory: read once to
 * check all of it (a wrong file is 422 with nothing written), then once more to store it, one
 * conversation per transaction; one already imported is skipped. Imports take turns per node (one
 * member's at a time) and a member may start RATE_LIMIT_IMPORTS_PER_USER_PER_HOUR of them an hour.
 * Nothing is charged. With `Accept: application/x-ndjson` the answer is a stream of
 * `{"progress": n}` lines (n from 0 to 1) and then the answer's JSON (or `{ error, code }`).
 */
export const importsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const limits = app.config.imports;
  await app.register(multipart, {
    limits: { fileSize: limits.maxBytes, files: 1, fields: formFields.length, parts: 3, headerPairs: 100 },
  });
  // Two imports at once on a node, one member's at a time: a member's big export never holds up all.
  const turns = createFairQueue(2);
  const spool = join(app.config.dataDir, 'imports');
  // Uploads a crash left behind (a running import's is never this old when the node starts).
  await mkdir(spool, { recursive: true });
  for (const name of await readdir(spool))
    if ((await stat(join(spool, name))).mtimeMs < Date.now() - 24 * 3_600_000)
      await rm(join(spool, name), { force: true });

  app.addHook('preHandler', app.authenticate);

  /** The form: the upload written to `path`, and its other fields. */
  async function receive(request: FastifyRequest, path: string): Promise<Form> {
    if (!request.isMultipart())
      throw new ApiError(
        415,
        'Send the export as multipart/form-data, in the field "file".',
        'INVALID_MEDIA_TYPE',
        'file',
      );
    const form: Form = {};
    let received = false;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new ApiError(400, 'Please attach your export in the field "file".', 'INVALID_INPUT', 'file');
        }
        try {
          await pipeline(part.file, createWriteStream(path));
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new ApiError(
              413,
              `The export is larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MB.`,
              'FILE_TOO_LARGE',
              'file',
            );
          throw error;
        }
        received = true;
      } else {
        const name = formFields.find((field) => field === part.fieldname);
        const value = typeof part.value === 'string' ? part.value.trim() : '';
        if (!name || !value || value.length > 64 || value.includes('\u0000'))
          throw new ApiError(
            400,
            `The field "${part.fieldname}" is not expected here.`,
            'INVALID_INPUT',
            part.fieldname,
          );
        form[name] = value;
      }
    }
    if (!received)
      throw new ApiError(400, 'Please attach your export in the field "file".', 'INVALID_INPUT', 'file');
    return form;
  }

  /** How to read the export's conversations from the start: a ZIP's entry, or the file itself. */
  async function reader(path: string): Promise<() => AsyncIterable<Buffer>> {
    const file = await open(path, 'r');
    const magic = Buffer.alloc(4);
    await file.read(magic, 0, 4, 0).finally(() => file.close());
    if (magic.readUInt32LE(0) === 0x04034b50 || magic.readUInt32LE(0) === 0x06054b50) {
      const entry = await findConversations(path);
      return () => entryBytes(path, entry, limits.maxExpandedBytes);
    }
    return () => createReadStream(path, { highWaterMark: 256 * 1024 });
  }

  /** Stores the export's conversations, reporting the share done; the answer. */
  async function store(
    owner: Owner,
    into: { bot: string; project: string | null },
    read: () => AsyncIterable<Buffer>,
    total: number,
    progress: (done: number) => void,
  ) {
    const topics: string[] = [];
    let index = 0;
    for await (const item of arrayItems(read(), arrayLimits)) {
      const conversation = conversationOf(item, index);
      index += 1;
      const topic = conversation.messages.length
        ? await importConversation(app.db, owner, into, conversation)
        : null;
      if (topic) topics.push(topic);
      progress(index / total);
    }
    return { imported: topics.length, skipped: index - topics.length, topics };
  }

  app.post(
    '/api/v1/import',
    {
      config: {
        rateLimit: {
          max: limits.perUserPerHour,
          timeWindow: '1 hour',
          hook: 'preHandler',
          keyGenerator: (request) => `${request.auth.tenant}/${request.auth.userId}`,
        },
      },
      schema: { consumes: ['multipart/form-data'], response: { 200: importResult } },
    },
    async (request, reply) => {
      const owner: Owner = { tenant: request.auth.tenant, userId: request.auth.userId };
      const path = join(spool, `${randomUUID()}.upload`);
      try {
        const form = await receive(request, path);
        const project = form.project ? (await readableProject(app.db, owner, form.project)).id : null;
        const bot = await botForImport(app.db, owner, { requested: form.bot, project }, (candidate) =>
          canRun(app.config, candidate),
        );
        return await turns.run(`${owner.tenant}/${owner.userId}`, async () => {
          const read = await reader(path);
          // All of it is checked before anything is stored: a wrong file leaves nothing behind.
          let total = 0;
          for await (const item of arrayItems(read(), arrayLimits)) conversationOf(item, total++);
          if (!request.headers.accept?.includes('application/x-ndjson'))
            return store(owner, { bot, project }, read, total, () => {});
          const lines = progressLines(reply);
          lines.progress(0);
          try {
            lines.end(await store(owner, { bot, project }, read, total, lines.progress));
          } catch (error) {
            request.log.error({ err: error }, 'an import failed');
            lines.end({
              error: 'The import stopped on our side. Import the file again to add the rest.',
              code: 'INTERNAL',
            });
          }
          return reply;
        });
      } finally {
        await rm(path, { force: true });
      }
    },
  );
};
