import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { ZipFile } from 'yazl';
import { ApiError } from '../errors';
import { readContent } from '../files/store';
import { normalizeDisplayName, normalizeUsername } from './names';
import { exportUser, readUser } from './store';

/** The signed-in user: read, edit, export and delete the account (own user only). */
export const usersPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get('/api/v1/user/me', async (request) => readUser(app.db, request.auth));

  app.patch<{ Body: { displayName?: string; username?: string } }>(
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
      },
    },
    async (request) => {
      const { displayName, username } = request.body;
      const owner = request.auth;
      const changes = {
        display_name: displayName === undefined ? null : normalizeDisplayName(displayName),
        username: username === undefined ? null : normalizeUsername(username),
      };
      try {
        await app.db.query(
          'update users set display_name = coalesce($3, display_name), username = coalesce($4, username) where id = $1 and tenant = $2',
          [owner.userId, owner.tenant, changes.display_name, changes.username],
        );
      } catch (error) {
        if ((error as { code?: string }).code === '23505')
          throw new ApiError(
            409,
            'This username is taken. Choose another one.',
            'USERNAME_TAKEN',
            'username',
          );
        throw error;
      }
      return readUser(app.db, owner);
    },
  );

  app.delete<{ Body: { password: string } }>(
    '/api/v1/user/me',
    {
      schema: {
        body: {
          type: 'object',
          required: ['password'],
          additionalProperties: false,
          properties: { password: { type: 'string', minLength: 1, maxLength: 128 } },
        },
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
      const { rows: owners } = await app.db.query<{ role: string; others: string }>(
        `select role, (select count(*) from users o where o.tenant = u.tenant and o.role = 'owner'
                         and o.status = 'active' and o.id <> u.id) as others
         from users u where u.id = $1 and u.tenant = $2`,
        [request.auth.userId, request.auth.tenant],
      );
      if (owners[0]?.role === 'owner' && Number(owners[0].others) === 0) {
        throw new ApiError(
          409,
          'You are the last owner of this organization: make another member owner before you leave.',
          'LAST_OWNER',
        );
      }
      // Topics, messages, transactions, notifications and sessions go with the user (on delete cascade).
      await app.db.query('delete from users where id = $1 and tenant = $2', [
        request.auth.userId,
        request.auth.tenant,
      ]);
      await app.sessions.revokeAll(request.auth);
      return { success: true };
    },
  );

  // JSON by default (as it always was, now listing the files too); `format=zip`: that JSON and the
  // files' bytes, read from the database one at a time as the archive is sent.
  app.get<{ Querystring: { format?: 'json' | 'zip' } }>(
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
