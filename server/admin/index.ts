import type { FastifyPluginAsync } from 'fastify';
import { auditAdminPlugin } from './audit/routes';
import { botsAdminPlugin } from './bots/routes';
import { categoriesAdminPlugin } from './categories/routes';
import { feedbackAdminPlugin } from './feedback/routes';
import { groupsAdminPlugin } from './groups/routes';
import { invitationsAdminPlugin } from './invitations/routes';
import { knowledgeAdminPlugin } from './knowledge/routes';
import { mcpAdminPlugin } from './mcp/routes';
import { membersAdminPlugin } from './members/routes';
import { modelsAdminPlugin } from './models/routes';
import { providersPlugin } from './providers/routes';
import { requireRole } from './requireRole';
import { settingsAdminPlugin } from './settings/routes';
import { ssoAdminPlugin } from './sso/routes';
import { usageAdminPlugin } from './usage/routes';

/**
 * `/api/v1/admin/…`: an organization's admins run it. One role check for every route (admin or owner
 * of the request's organization, before the body is read); every query scoped to that organization;
 * every write recorded in the audit log.
 */
export const adminPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', requireRole(app, 'admin'));
  await app.register(botsAdminPlugin);
  await app.register(categoriesAdminPlugin);
  await app.register(groupsAdminPlugin);
  await app.register(providersPlugin);
  await app.register(modelsAdminPlugin);
  await app.register(membersAdminPlugin);
  await app.register(invitationsAdminPlugin);
  await app.register(settingsAdminPlugin);
  await app.register(usageAdminPlugin);
  await app.register(feedbackAdminPlugin);
  await app.register(auditAdminPlugin);
  await app.register(knowledgeAdminPlugin);
  await app.register(ssoAdminPlugin);
  await app.register(mcpAdminPlugin);
};
