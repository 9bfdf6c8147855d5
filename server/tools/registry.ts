import type { FastifyInstance } from 'fastify';
import { knowledgeOf } from '../bots/config';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';
import { readSearch } from '../search/store';
import { type BuiltinRun, builtinRunners, builtinToolInfos } from './builtin';
import { rememberTool, rememberToolInfo } from './builtin/remember';
import { WebSources } from './builtin/webSearch';
import { callMcpTool, listMcpToolsForOrg } from './mcp/index';
import type { ToolInfo } from './types';

/** A tool one reply may call: what the model is told of it, and how it runs. */
export interface Tool {
  info: ToolInfo;
  run: BuiltinRun;
  /** Its own time limit, longer than tools' usual one (an image model takes its time). */
  timeoutMs?: number;
}

/** The tools a bot's config enables (`config.tools`), and those of them that ask the user first. */
const namesIn = (config: Record<string, unknown>, key: 'tools' | 'askFirst'): string[] =>
  Array.isArray(config[key])
    ? (config[key] as unknown[]).filter((name): name is string => typeof name === 'string')
    : [];
export const toolsOf = (config: Record<string, unknown>) => namesIn(config, 'tools');
export const askFirstOf = (config: Record<string, unknown>) => namesIn(config, 'askFirst');

/** Every tool the organization's bots may be given: the built-in ones, then its MCP servers'. */
export async function organizationTools(db: Db, tenant: string): Promise<ToolInfo[]> {
  return [...builtinToolInfos, ...(await listMcpToolsForOrg(db, tenant))];
}

/**
 * A bot's `tools` and `askFirst` as the admin area sets them: names of the organization's tools, each
 * once; `askFirst` a subset of `tools`. An unknown name is a 400 naming it (names in `kept`, the bot's
 * already, are not looked up again).
 */
export async function checkTools(
  db: Db,
  tenant: string,
  tools: string[],
  askFirst: string[],
  kept: Set<string> = new Set(),
): Promise<{ tools: string[]; askFirst: string[] }> {
  const added = tools.filter((name) => !kept.has(name));
  const known = added.length ? new Set((await organizationTools(db, tenant)).map((tool) => tool.name)) : kept;
  const unknown = added.find((name) => !known.has(name));
  if (unknown) throw new ApiError(400, `There is no tool named ${unknown}.`, 'INVALID_INPUT', 'tools');
  const enabled = [...new Set(tools)];
  const outside = askFirst.find((name) => !enabled.includes(name));
  if (outside)
    throw new ApiError(
      400,
      `${outside} asks first but is not one of the bot’s tools.`,
      'INVALID_INPUT',
      'askFirst',
    );
  return { tools: enabled, askFirst: [...new Set(askFirst)] };
}

/** The tools of one reply of a bot, with those that ask the user first. */
export interface BotTools {
  tools: Map<string, Tool>;
  askFirst: Set<string>;
  /**
   * Only the member's own tools (`remember`), none the admin gave the bot: a model server that takes
   * no tools is asked again without them, rather than failing a bot that never needed tools.
   */
  optional: boolean;
  /** The web pages its `web_search` calls found: citations of the reply. */
  sources?: WebSources;
}

/** A reply's web search: asked for this message (the composer's switch), and the first number its pages are cited by. */
export interface WebSearchAsk {
  asked: boolean;
  firstCitation: number;
}

/**
 * The tools a reply of this bot may call, resolved by name to a built-in or an MCP server's tool of
 * its organization. Names no longer resolvable (an MCP server removed since) are left out, and so are
 * `search_knowledge` for a bot without knowledge bases and `web_search` in an organization without a
 * search engine. With `remember` (memory on for the member, in the app), `remember` too, saving into
 * that project (or everywhere: null), whatever the bot's tools. With `web.asked` (the member's "Search
 * the web"), `web_search` too; it always brings `fetch_url`, to read a page it found. Model bots only,
 * and image bots (`generate_image`, always).
 */
export async function toolsForBot(
  app: FastifyInstance,
  owner: Owner,
  bot: { platform: string; config: Record<string, unknown> },
  remember: { project: string | null } | null = null,
  web: WebSearchAsk = { asked: false, firstCitation: 1 },
): Promise<BotTools> {
  const model = bot.platform === 'openai';
  // An image bot's every message is a prompt: its one tool draws it.
  const given = model ? toolsOf(bot.config) : bot.platform === 'image' ? ['generate_image'] : [];
  const searches = model && (web.asked || given.includes('web_search'));
  const stored = searches ? await readSearch(app.db, owner.tenant) : null;
  const sources = stored ? new WebSources(web.firstCitation) : undefined;
  const names = stored ? [...new Set([...given, 'web_search', 'fetch_url'])] : given;
  const tools = new Map<string, Tool>();
  const builtins = names.length
    ? builtinRunners(
        app,
        owner,
        knowledgeOf(bot.config),
        stored && sources
          ? {
              setup: {
                stored,
                tenant: owner.tenant,
                unseal: (sealed, context) => app.secrets.unseal(sealed, context),
                timeoutMs: app.config.search.timeoutMs,
                braveUrl: app.config.search.braveUrl,
                allowPrivate: app.config.allowPrivateProviderUrls,
              },
              sources,
            }
          : null,
      )
    : {};
  const wantsMcp = names.some((name) => !builtinToolInfos.some((tool) => tool.name === name));
  const mcp = wantsMcp ? await listMcpToolsForOrg(app.db, owner.tenant) : [];
  for (const name of names) {
    const builtin = builtinToolInfos.find((tool) => tool.name === name);
    if (builtin) {
      if (name in builtins)
        tools.set(name, {
          info: builtin,
          run: builtins[name],
          // The provider's own limit, and time to store the image after it.
          ...(name === 'generate_image' ? { timeoutMs: app.config.imageTimeoutMs + 15_000 } : {}),
        });
      continue;
    }
    const info = mcp.find((tool) => tool.name === name);
    if (info)
      tools.set(name, {
        info,
        run: (args, signal) => callMcpTool(app.db, owner.tenant, name, args, signal),
      });
  }
  const optional = tools.size === 0;
  // MCP tools are named `<server>__<tool>`: none is called `remember`.
  if (model && remember)
    tools.set(rememberToolInfo.name, {
      info: rememberToolInfo,
      run: rememberTool(app, owner, remember.project),
    });
  return {
    tools,
    askFirst: new Set(askFirstOf(bot.config).filter((name) => tools.has(name))),
    optional,
    ...(sources ? { sources } : {}),
  };
}
