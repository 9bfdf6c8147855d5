import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { audit } from '../../audit/store';
import {
  baseNameTaken,
  createBase,
  deleteBase,
  listBases,
  readBase,
  removeDocument,
  saveDocument,
  updateBase,
} from '../../knowledge/store';
import { cleanName, idParams, objectOf, successResponse, uniqueViolation } from '../../schemas';

const documentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'name', 'status'],
  properties: {
    _id: { type: 'string', description: 'the id its upload answered' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['queued', 'indexing', 'ready', 'failed'] },
    error: { type: 'string', description: 'why a failed document could not be indexed' },
  },
} as const;
const baseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'name', 'description', 'documents'],
  properties: {
    _id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    documents: { type: 'array', items: documentSchema },
  },
} as const;
const baseFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  description: { type: 'string', maxLength: 2000 },
} as const;
const fileParams = {
  type: 'object',
  required: ['id', 'fileId'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 },
    fileId: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

/**
 * Knowledge bases in the admin area (`/api/v1/admin/knowledge`): documents the organization's bots
 * search. Uploads take the files' pipeline (sniffing, extraction worker, quota); each document is
 * then indexed by the job loop of whichever node claims it (./indexer.ts).
 */
export const knowledgeAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  await app.uploads.register(app);

  app.get('/knowledge', { schema: { response: { 200: { type: 'array', items: baseSchema } } } }, (request) =>
    listBases(app.db, request.tenant),
  );

  app.post(
    '/knowledge',
    { schema: { body: objectOf(baseFields, ['name']), response: { 201: baseSchema } } },
    async (request, reply) => {
      const name = cleanName(request.body.name);
      const description = request.body.description?.trim() ?? '';
      const base = await app.db
        .transaction(async (tx) => {
          const id = await createBase(tx, request.tenant, { name, description });
          await audit(tx, request, {
            action: 'knowledge.create',
            target: id,
            before: null,
            after: { name, description },
          });
          return readBase(tx, request.tenant, id);
        })
        .catch((error) => {
          throw uniqueViolation(error) ? baseNameTaken() : error;
        });
      return reply.code(201).send(base);
    },
  );

  app.get('/knowledge/:id', { schema: { params: idParams, response: { 200: baseSchema } } }, (request) =>
    readBase(app.db, request.tenant, request.params.id),
  );

  app.patch(
    '/knowledge/:id',
    { schema: { params: idParams, body: objectOf(baseFields, [], 1), response: { 200: baseSchema } } },
    async (request) => {
      const before = await readBase(app.db, request.tenant, request.params.id);
      const name = request.body.name === undefined ? before.name : cleanName(request.body.name);
      const description = request.body.description?.trim() ?? before.description;
      return app.db
        .transaction(async (tx) => {
          await updateBase(tx, request.tenant, before._id, { name, description });
          await audit(tx, request, {
            action: 'knowledge.update',
            target: before._id,
            before: { name: before.name, description: before.description },
            after: { name, description },
          });
          return readBase(tx, request.tenant, before._id);
        })
        .catch((error) => {
          throw uniqueViolation(error) ? baseNameTaken() : error;
        });
    },
  );

  app.delete(
    '/knowledge/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      const before = await readBase(app.db, request.tenant, request.params.id);
      await app.db.transaction(async (tx) => {
        await deleteBase(tx, request.tenant, before._id);
        await audit(tx, request, {
          action: 'knowledge.delete',
          target: before._id,
          before: { name: before.name, documents: before.documents.map((document) => document.name) },
          after: null,
        });
      });
      await app.botCatalogue.forget(request.tenant);
      return { success: true };
    },
  );

  app.post(
    '/knowledge/:id/file',
    { schema: { params: idParams, response: { 201: documentSchema } } },
    async (request, reply) => {
      const { tenant } = request;
      // Checked before the bytes are read: another organization's base costs no reading.
      const base = await readBase(app.db, tenant, request.params.id);
      const document = await app.uploads.receive(request, tenant, (upload) =>
        app.db.transaction(async (tx) => {
          const saved = await saveDocument(tx, tenant, base._id, upload);
          await audit(tx, request, {
            action: 'knowledge.upload',
            target: base._id,
            before: null,
            after: { document: saved._id, name: saved.name },
          });
          return saved;
        }),
      );
      return reply.code(201).send(document);
    },
  );

  app.delete(
    '/knowledge/:id/file/:fileId',
    { schema: { params: fileParams, response: { 200: successResponse } } },
    async (request) => {
      const { tenant } = request;
      const base = await readBase(app.db, tenant, request.params.id);
      await app.db.transaction(async (tx) => {
        const removed = await removeDocument(tx, tenant, base._id, request.params.fileId);
        await audit(tx, request, {
          action: 'knowledge.remove',
          target: base._id,
          before: { document: request.params.fileId, name: removed.name },
          after: null,
        });
      });
      return { success: true };
    },
  );
};
