import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { cleanIdpGroups } from '../../access/groups';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { cleanName, idParams, objectOf, successResponse, uniqueViolation } from '../../schemas';
import {
  botsOnlyFor,
  checkMembers,
  deleteGroup,
  type Group,
  insertGroup,
  listGroups,
  readGroup,
  setGroupMembers,
  updateGroup,
} from './store';

const groupFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  monthlyBudget: { type: ['number', 'null'], minimum: 0, maximum: 1_000_000_000 },
  idpGroups: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
const membersBody = objectOf(
  { members: { type: 'array', maxItems: 10_000, items: { type: 'string', minLength: 1, maxLength: 64 } } },
  ['members'],
);
const groupSchema = objectOf(
  {
    _id: { type: 'string' },
    name: { type: 'string' },
    monthlyBudget: { type: ['number', 'null'] },
    idpGroups: { type: 'array', items: { type: 'string' } },
    members: {
      type: 'array',
      items: objectOf(
        { _id: { type: 'string' }, displayName: { type: 'string' }, username: { type: 'string' } },
        ['_id', 'displayName', 'username'],
      ),
    },
    bots: { type: 'array', items: { type: 'string' } },
  },
  ['_id', 'name', 'monthlyBudget', 'idpGroups', 'members', 'bots'],
);

const nameTaken = () => new ApiError(409, 'A group with this name exists already.', 'NAME_TAKEN', 'name');
const idsOf = (group: Group) => group.members.map((member) => member._id);
/** What the audit log keeps of a group's settings. */
const settingsOf = ({ name, monthlyBudget, idpGroups }: Group) => ({ name, monthlyBudget, idpGroups });

/**
 * Groups of members: which bots they may use (a bot limited to groups is for their members only) and
 * a monthly budget per member. List, create, change, delete, and set the members.
 */
export const groupsAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get('/group', { schema: { response: { 200: { type: 'array', items: groupSchema } } } }, (request) =>
    listGroups(app.db, request.tenant),
  );

  app.post(
    '/group',
    { schema: { body: objectOf(groupFields, ['name']), response: { 201: groupSchema } } },
    async (request, reply) => {
      const name = cleanName(request.body.name);
      const idpGroups = cleanIdpGroups(request.body.idpGroups ?? []);
      const monthlyBudget = request.body.monthlyBudget ?? null;
      const group = await app.db
        .transaction(async (tx) => {
          const id = await insertGroup(tx, request.tenant, { name, monthlyBudget, idpGroups });
          const created = await readGroup(tx, request.tenant, id);
          await audit(tx, request, {
            action: 'group.create',
            target: created._id,
            before: null,
            after: settingsOf(created),
          });
          return created;
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      return reply.code(201).send(group);
    },
  );

  app.patch(
    '/group/:id',
    { schema: { params: idParams, body: objectOf(groupFields, [], 1), response: { 200: groupSchema } } },
    async (request) => {
      const { tenant } = request;
      const before = await readGroup(app.db, tenant, request.params.id);
      const changes = request.body;
      const name = changes.name === undefined ? before.name : cleanName(changes.name);
      const monthlyBudget =
        changes.monthlyBudget === undefined ? before.monthlyBudget : changes.monthlyBudget;
      const idpGroups =
        changes.idpGroups === undefined ? before.idpGroups : cleanIdpGroups(changes.idpGroups);
      return app.db
        .transaction(async (tx) => {
          await updateGroup(tx, tenant, before._id, { name, monthlyBudget, idpGroups });
          const after = await readGroup(tx, tenant, before._id);
          await audit(tx, request, {
            action: 'group.update',
            target: before._id,
            before: settingsOf(before),
            after: settingsOf(after),
          });
          return after;
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
    },
  );

  app.delete(
    '/group/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      const { tenant } = request;
      const before = await readGroup(app.db, tenant, request.params.id);
      // A bot limited to this group alone would be open to everyone without it: the admin decides first.
      const limited = await botsOnlyFor(app.db, tenant, before._id);
      if (limited.length) {
        throw new ApiError(
          409,
          `Only this group may use ${limited.join(', ')}. Give ${limited.length === 1 ? 'that bot' : 'those bots'} other groups, or none (everyone), before deleting it.`,
          'GROUP_IN_USE',
        );
      }
      await app.db.transaction(async (tx) => {
        await deleteGroup(tx, tenant, before._id);
        await audit(tx, request, {
          action: 'group.delete',
          target: before._id,
          before: { ...settingsOf(before), members: before.members, bots: before.bots },
          after: null,
        });
      });
      // Bots it shared with other groups lose it: the catalogue is read afresh.
      if (before.bots.length) await app.botCatalogue.forget(tenant);
      return { success: true };
    },
  );

  app.put(
    '/group/:id/members',
    { schema: { params: idParams, body: membersBody } },
    async (request, reply) => {
      const { tenant } = request;
      const before = await readGroup(app.db, tenant, request.params.id);
      const members = await checkMembers(app.db, tenant, request.body.members);
      await app.db.transaction(async (tx) => {
        await setGroupMembers(tx, before._id, members);
        const after = await readGroup(tx, tenant, before._id);
        await audit(tx, request, {
          action: 'group.members',
          target: before._id,
          before: { members: idsOf(before) },
          after: { members: idsOf(after) },
        });
      });
      // 'OK', as the web app's HTTP helper reads a PUT's success (seed-spec §7).
      return reply.type('text/plain; charset=utf-8').send('OK');
    },
  );
};
