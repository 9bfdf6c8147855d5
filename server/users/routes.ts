import { Readable } from 'node:stream';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ZipFile } from 'yazl';
import { ApiError } from '../errors';
import { readContent } from '../files/store';
import { successResponse } from '../schemas';
import { normalizeDisplayName, normalizeUsername } from './names';
import { deleteAccount, exportUser, isLastOwner, readUser, updateProfile } from './store';

const userSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'username', 'displayName', 'email', 'organization', 'role', 'createdAt'],
  properties: {
    _id: { type: 'string' },
    username: { type: 'string' },
    displayName: { type: 'string' },
    email: { type: 'string' },
    organization: { type: 'string' },
    role: { type: 'string' },
    createdAt: { type: 'string' },
  },
} as const;

/** The signed-in user: read, edit, export and delete the account (own user only). */
export const usersPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get('/api/v1/user/me', { schema: { response: { 200: userSchema } } }, async (request) =>
    readUser(app.db, request.auth),
  );

  app.patch(
    '/api/v1/user/me',
    {
      schema: {
        body: {
          type: 'object',
          minProperties: 1,
          additionalProperties: false,
          properties: {
            displayName: { type: 'string', minLength: 1, maxLength: 256 },
            username: { type: 'string', minLength: 1, maxLength: 64 },
          },
        },
        response: { 200: userSchema },
      },
    },
    async (request) => {
      const { displayName, username } = request.body;
      const owner = request.auth;
      const changed = await updateProfile(app.db, owner, {
        displayName: displayName === undefined ? null : normalizeDisplayName(displayName),
        username: username === undefined ? null : normalizeUsername(username),
      });
      if (!changed)
        throw new ApiError(409, 'This username is taken. Choose another one.', 'USERNAME_TAKEN', 'username');
      return readUser(app.db, owner);
    },
  );

  app.delete(
    '/api/v1/user/me',
    {
      schema: {
        body: {
          type: 'object',
          required: ['password'],
          additionalProperties: false,
          properties: { password: { type: 'string', minLength: 1, maxLength: 128 } },
        },
        response: { 200: successResponse },
      },
    },
    async (request) => {
      if (!(await app.checkAccountPassword(request, request.body.password))) {
        // Whoever tries to delete an account without its password loses the session: the UI goes to welcome.
        await app.sessions.revoke(request.auth.sessionId);
        throw new ApiError(
          401,
          'Wrong password. You have been logged out for safety.',
          'WRONG_PASSWORD',
          'password',
        );
      }
      // The organization's last owner cannot leave it.
      if (await isLastOwner(app.db, request.auth)) {
        throw new ApiError(
          409,
          'You are the last owner of this organization: make another member owner before you leave.',
          'LAST_OWNER',
        );
      }
      await deleteAccount(app.db, request.auth);
      await app.sessions.revokeAll(request.auth);
      return { success: true };
    },
  );

  // JSON by default (as it always was, now listing the files too); `format=zip`: that JSON and the
  // files' bytes, read from the database one at a time as the archive is sent.
  app.get(
    '/api/v1/user/me/export',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { format: { type: 'string', enum: ['json', 'zip'] } },
        },
      },
    },
    async (request, reply) => {
      const data = await exportUser(app.db, request.auth);
      const base = `parley-${data.account.username}`;
      reply.header('cache-control', 'no-store');
      if (request.query.format !== 'zip')
        return reply.header('content-disposition', `attachment; filename="${base}.json"`).send(data);
      const zip = new ZipFile();
      zip.addBuffer(Buffer.from(JSON.stringify(data, null, 2)), `${base}.json`);
      for (const file of data.files) {
        const bytes = Readable.from(
          (async function* () {
            // A file deleted since the list was read is left empty, not a broken archive.
            const content = await readContent(app.db, request.auth, file._id, false).catch(() => null);
            if (content?.bytes) yield content.bytes;
          })(),
        );
        zip.addReadStream(bytes, `files/${file._id}/${file.name}`);
      }
      zip.end();
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${base}.zip"`)
        .send(zip.outputStream);
    },
  );
};
