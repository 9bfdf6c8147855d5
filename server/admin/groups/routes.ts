import type { FastifyPluginAsync } from 'fastify';
import { cleanIdpGroups } from '../../access/groups';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { cleanName, idParams, objectOf, uniqueViolation } from '../../schemas';
import { checkMembers, type Group, listGroups, readGroup } from './store';

const groupFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  monthlyBudget: { type: ['number', 'null'], minimum: 0, maximum: 1_000_000_000 },
  idpGroups: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } },
};
const membersBody = objectOf(
  { members: { type: 'array', maxItems: 10_000, items: { type: 'string', minLength: 1, maxLength: 64 } } },
  ['members'],
);
interface GroupInput {
  name: string;
  monthlyBudget?: number | null;
  idpGroups?: string[];
}

const nameTaken = () => new ApiError(409, 'A group with this name exists already.', 'NAME_TAKEN', 'name');
const idsOf = (group: Group) => group.members.map((member) => member._id);
/** What the audit log keeps of a group's settings. */
const settingsOf = ({ name, monthlyBudget, idpGroups }: Group) => ({ name, monthlyBudget, idpGroups });

/**
 * Groups of members: which bots they may use (a bot limited to groups is for their members only) and
 * a monthly budget per member. List, create, change, delete, and set the members.
 */
export const groupsAdminPlugin: FastifyPluginAsync = async (app) => {
  app.get('/group', async (request) => listGroups(app.db, request.tenant));

  app.post<{ Body: GroupInput }>(
    '/group',
    { schema: { body: objectOf(groupFields, ['name']) } },
    async (request, reply) => {
      const name = cleanName(request.body.name);
      const idpGroups = cleanIdpGroups(request.body.idpGroups ?? []);
      const monthlyBudget = request.body.monthlyBudget ?? null;
      const group = await app.db
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ id: string }>(
            'insert into groups (tenant, name, monthly_budget, idp_groups) values ($1, $2, $3, $4) returning id',
            [request.tenant, name, monthlyBudget, idpGroups],
          );
          const created = await readGroup(tx, request.tenant, rows[0].id);
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

  app.patch<{ Params: { id: string }; Body: Partial<GroupInput> }>(
    '/group/:id',
    { schema: { params: idParams, body: objectOf(groupFields, [], 1) } },
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
          await tx.query(
            'update groups set name = $3, monthly_budget = $4, idp_groups = $5 where id = $1 and tenant = $2',
            [before._id, tenant, name, monthlyBudget, idpGroups],
          );
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

  app.delete<{ Params: { id: string } }>('/group/:id', { schema: { params: idParams } }, async (request) => {
    const { tenant } = request;
    const before = await readGroup(app.db, tenant, request.params.id);
    // A bot limited to this group alone would be open to everyone without it: the admin decides first.
    const { rows: limited } = await app.db.query<{ name: string }>(
      `select b.name from bot_groups bg join bots b on b.id = bg.bot_id
         where bg.group_id = $1 and b.tenant = $2
           and not exists (select 1 from bot_groups other where other.bot_id = bg.bot_id and other.group_id <> $1)
         order by b.position, b.name`,
      [before._id, tenant],
    );
    if (limited.length) {
      throw new ApiError(
        409,
        `Only this group may use ${limited.map((bot) => bot.name).join(', ')}. Give ${limited.length === 1 ? 'that bot' : 'those bots'} other groups, or none (everyone), before deleting it.`,
        'GROUP_IN_USE',
      );
    }
    await app.db.transaction(async (tx) => {
      await tx.query('delete from groups where id = $1 and tenant = $2', [before._id, tenant]);
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
  });

  app.put<{ Params: { id: string }; Body: { members: string[] } }>(
    '/group/:id/members',
    { schema: { params: idParams, body: membersBody } },
    async (request, reply) => {
      const { tenant } = request;
      const before = await readGroup(app.db, tenant, request.params.id);
      const members = await checkMembers(app.db, tenant, request.body.members);
      await app.db.transaction(async (tx) => {
        await tx.query('delete from group_members where group_id = $1 and not (user_id = any($2::text[]))', [
          before._id,
          members,
        ]);
        if (members.length)
          await tx.query(
            `insert into group_members (group_id, user_id) select $1, unnest($2::text[]) on conflict do nothing`,
            [before._id, members],
          );
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
