import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMcpTool } from '../../server/tools/mcp';
import { ToolError } from '../../server/tools/types';
import { call, type Json, startApp, type TestServer } from '../support/app';
import {
  type EverythingServer,
  elapsed,
  type HangingServer,
  startEverything,
  startHangingServer,
} from '../support/mcpServers';
import { type Actor, admin, loginOwner, member } from './admin/support';
import { giveTools } from './tools/support';

const builtins = [
  'calculator',
  'current_time',
  'fetch_url',
  'generate_image',
  'web_search',
  'search_knowledge',
];
const token = 'mcp-secret-token-0123456789abcdef';

describe('admin area: MCP servers and the tools bots may use', () => {
  let server: TestServer;
  let everything: EverythingServer;
  let hanging: HangingServer;
  let owner: Actor;
  let elsewhere: Actor;
  let serverId = '';

  beforeAll(async () => {
    everything = await startEverything();
    hanging = await startHangingServer(everything.url);
    // Tests reach their MCP servers on 127.0.0.1, as providers' tests reach the model double.
    server = await startApp({ ALLOW_PRIVATE_PROVIDER_URLS: 'true' });
    owner = await loginOwner(server, 'acme');
    elsewhere = await loginOwner(server, 'app');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await hanging?.close();
    everything?.stop();
  });

  it('adds the reference MCP server: its tools are read with the SDK and listed, its token masked', async () => {
    const added = await admin(server, owner, '/mcp', {
      body: { name: owner.encrypt('Everything Demo'), url: everything.url, token },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      _id: expect.any(String),
      name: 'Everything Demo',
      url: everything.url,
    });
    const names = added.body.tools.map((tool: Json) => tool.name);
    expect(names).toContain('everything-demo__echo');
    expect(names).toContain('everything-demo__get-sum');
    expect(added.body.tools.find((tool: Json) => tool.name === 'everything-demo__echo')).toEqual({
      name: 'everything-demo__echo',
      description: 'Echoes back the input string',
    });
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    serverId = added.body._id;

    const list = await admin(server, owner, '/mcp');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      _id: serverId,
      name: 'Everything Demo',
      url: everything.url,
      token: '••••cdef',
      updatedAt: expect.any(String),
      bots: [],
    });
    expect(list.body[0].error).toBeUndefined();
    expect(list.body[0].tools.map((tool: Json) => tool.name)).toEqual(names);

    const tools = await admin(server, owner, '/tool');
    expect(tools.status).toBe(200);
    expect(tools.body.slice(0, builtins.length).map((tool: Json) => [tool.name, tool.source])).toEqual(
      builtins.map((name) => [name, 'builtin']),
    );
    expect(tools.body.find((tool: Json) => tool.name === 'everything-demo__echo')).toEqual({
      name: 'everything-demo__echo',
      description: 'Echoes back the input string',
      source: 'mcp',
      server: { _id: serverId, name: 'Everything Demo' },
    });
    expect(tools.body).toHaveLength(builtins.length + names.length);
  });

  it('calls a tool of the server through the SDK and answers its text; a tool error is a ToolError', async () => {
    const text = await callMcpTool(
      server.app.db,
      'acme',
      'everything-demo__echo',
      { message: 'Hello from Parley' },
      new AbortController().signal,
    );
    expect(text).toBe('Echo: Hello from Parley');
    const sum = await callMcpTool(
      server.app.db,
      'acme',
      'everything-demo__get-sum',
      { a: 2, b: 40 },
      new AbortController().signal,
    );
    expect(sum).toContain('42');

    // Arguments the tool refuses: the server answers isError, and its words reach the model.
    const refused = await callMcpTool(
      server.app.db,
      'acme',
      'everything-demo__echo',
      { message: 42 },
      new AbortController().signal,
    ).catch((error) => error);
    expect(refused).toBeInstanceOf(ToolError);
    expect(refused.message).toMatch(/message/i);

    const unknown = await callMcpTool(
      server.app.db,
      'acme',
      'everything-demo__no-such-tool',
      {},
      new AbortController().signal,
    ).catch((error) => error);
    expect(unknown).toBeInstanceOf(ToolError);
    expect(unknown.message).toBe('There is no tool named everything-demo__no-such-tool.');
    // Another organization has no such server: its tools are not anyone else's.
    const foreign = await callMcpTool(
      server.app.db,
      'app',
      'everything-demo__echo',
      { message: 'x' },
      new AbortController().signal,
    ).catch((error) => error);
    expect(foreign).toBeInstanceOf(ToolError);
  });

  it('refuses a server that hangs within 10 s, with a message at its URL, and stores nothing', async () => {
    hanging.hang = true;
    const before = hanging.requests.length;
    const { value: answer, ms } = await elapsed(() =>
      admin(server, owner, '/mcp', { body: { name: owner.encrypt('Stuck'), url: hanging.url, token } }),
    );
    expect(ms).toBeLessThan(13_000);
    expect(answer?.status).toBe(422);
    expect(answer?.body).toEqual({
      error: `The MCP server at ${hanging.url} did not answer within 10 seconds.`,
      code: 'MCP_UNREACHABLE',
      field: 'url',
    });
    // It was asked, with the bearer token.
    expect(hanging.requests.length).toBeGreaterThan(before);
    expect(hanging.requests.at(-1)?.authorization).toBe(`Bearer ${token}`);
    const list = await admin(server, owner, '/mcp');
    expect(list.body.map((item: Json) => item.name)).toEqual(['Everything Demo']);

    // Nobody listening at all: refused at once.
    const closed = await admin(server, owner, '/mcp', {
      body: { name: owner.encrypt('Gone'), url: 'http://127.0.0.1:9/mcp' },
    });
    expect(closed.status).toBe(422);
    expect(closed.body).toMatchObject({ code: 'MCP_UNREACHABLE', field: 'url' });
    expect(closed.body.error).toContain('cannot be reached');
  }, 30_000);

  it('a server that starts hanging: the call ends in a ToolError after 20 s, or at once when stopped', async () => {
    hanging.hang = false;
    const added = await admin(server, owner, '/mcp', {
      body: { name: owner.encrypt('Flaky'), url: hanging.url },
    });
    expect(added.status).toBe(201);
    expect(added.body.token).toBeNull();
    expect(
      await callMcpTool(
        server.app.db,
        'acme',
        'flaky__echo',
        { message: 'up' },
        new AbortController().signal,
      ),
    ).toBe('Echo: up');

    hanging.hang = true;
    const stopper = new AbortController();
    setTimeout(() => stopper.abort(), 500);
    const stopped = await elapsed(() =>
      callMcpTool(server.app.db, 'acme', 'flaky__echo', { message: 'x' }, stopper.signal),
    );
    expect(stopped.error).toBeInstanceOf(ToolError);
    expect(stopped.ms).toBeLessThan(3_000);

    const late = await elapsed(() =>
      callMcpTool(server.app.db, 'acme', 'flaky__echo', { message: 'x' }, new AbortController().signal),
    );
    expect(late.error).toBeInstanceOf(ToolError);
    expect((late.error as Error).message).toBe('The tool server Flaky did not answer.');
    expect(late.ms).toBeGreaterThanOrEqual(19_000);
    expect(late.ms).toBeLessThan(24_000);
    // The admin sees why.
    const list = await admin(server, owner, '/mcp');
    const flaky = list.body.find((item: Json) => item.name === 'Flaky');
    expect(flaky.error).toContain('did not answer within 20 seconds');

    // Answering again: the next call clears it.
    hanging.hang = false;
    expect(
      await callMcpTool(
        server.app.db,
        'acme',
        'flaky__echo',
        { message: 'back' },
        new AbortController().signal,
      ),
    ).toBe('Echo: back');
    const after = await admin(server, owner, '/mcp');
    expect(after.body.find((item: Json) => item.name === 'Flaky').error).toBeUndefined();
  }, 60_000);

  it('renames a server: its tools are renamed in the bots that use them; removing it takes them away', async () => {
    const created = await admin(server, owner, '/bot', {
      body: {
        name: owner.encrypt('Tool user'),
        description: 'Uses MCP tools.',
        platform: 'openai',
        model: 'test-model',
        price: 0,
        categories: [],
        active: true,
      },
    });
    expect(created.status).toBe(201);
    const botId = created.body._id;
    await giveTools(
      server,
      'acme',
      botId,
      ['calculator', 'flaky__echo', 'flaky__get-sum', 'everything-demo__echo'],
      ['flaky__get-sum'],
    );
    const flakyId = (await admin(server, owner, '/mcp')).body.find((item: Json) => item.name === 'Flaky')._id;
    const listed = await admin(server, owner, '/mcp');
    expect(listed.body.find((item: Json) => item._id === flakyId).bots).toEqual([
      { _id: botId, name: 'Tool user' },
    ]);

    const renamed = await admin(server, owner, `/mcp/${flakyId}`, {
      method: 'PATCH',
      body: { name: owner.encrypt('Steady Tools') },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Steady Tools');
    expect(renamed.body.tools.map((tool: Json) => tool.name)).toContain('steady-tools__echo');
    expect(renamed.body.botsChanged).toEqual([{ _id: botId, name: 'Tool user' }]);
    // The bot editor reads the renamed tools.
    const toolsOf = async () =>
      (await admin(server, owner, '/bot')).body.find((bot: Json) => bot._id === botId) as Json;
    expect(await toolsOf()).toMatchObject({
      tools: ['calculator', 'steady-tools__echo', 'steady-tools__get-sum', 'everything-demo__echo'],
      askFirst: ['steady-tools__get-sum'],
    });

    const removed = await admin(server, owner, `/mcp/${flakyId}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      success: true,
      bots: [{ _id: botId, name: 'Tool user' }],
      message: 'Its tools were removed from Tool user.',
    });
    expect(await toolsOf()).toMatchObject({ tools: ['calculator', 'everything-demo__echo'], askFirst: [] });
    const tools = await admin(server, owner, '/tool');
    expect(tools.body.some((tool: Json) => tool.name.startsWith('steady-tools__'))).toBe(false);
  }, 30_000);

  it("keeps each organization's servers its own: another's is 404, a member cannot add one", async () => {
    const theirs = await admin(server, elsewhere, '/mcp');
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
    const theirTools = await admin(server, elsewhere, '/tool');
    expect(theirTools.body.map((tool: Json) => tool.name)).toEqual(builtins);
    const patch = await admin(server, elsewhere, `/mcp/${serverId}`, {
      method: 'PATCH',
      body: { url: everything.url },
    });
    expect(patch.status).toBe(404);
    expect((await admin(server, elsewhere, `/mcp/${serverId}`, { method: 'DELETE' })).status).toBe(404);

    const someone = await member(server, 'acme');
    const denied = await admin(server, someone, '/mcp', {
      body: { name: someone.encrypt('Mine'), url: everything.url },
    });
    expect(denied.status).toBe(403);
    expect((await admin(server, someone, '/mcp')).status).toBe(403);
    expect((await admin(server, someone, '/tool')).status).toBe(403);
    expect((await admin(server, someone, `/mcp/${serverId}`, { method: 'DELETE' })).status).toBe(403);
    expect((await admin(server, owner, '/mcp')).body.map((item: Json) => item._id)).toContain(serverId);
  });

  it('never shows the token: not in lists, not in the audit log, not stored in clear', async () => {
    const changed = await admin(server, owner, `/mcp/${serverId}`, {
      method: 'PATCH',
      body: { token: `${token}-new-9876` },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.token).toBe('••••9876');
    const everythingSeen = JSON.stringify([
      (await admin(server, owner, '/mcp')).body,
      (await admin(server, owner, '/tool')).body,
      (await admin(server, owner, '/audit')).body,
    ]);
    expect(everythingSeen).not.toContain(token);
    expect(everythingSeen).not.toContain('mcp-secret');
    const audit = (await admin(server, owner, '/audit')).body;
    const entries = (audit.items ?? audit).filter((entry: Json) => String(entry.action).startsWith('mcp.'));
    expect(entries.map((entry: Json) => entry.action)).toEqual(
      expect.arrayContaining(['mcp.create', 'mcp.update', 'mcp.delete']),
    );
    expect(
      entries.find((entry: Json) => entry.action === 'mcp.create' && entry.target === serverId).after,
    ).toMatchObject({
      name: 'Everything Demo',
      token: '••••cdef',
    });
    const { rows } = await server.app.db.query<{ token: string }>(
      'select token from mcp_servers where id = $1',
      [serverId],
    );
    expect(rows[0].token).not.toContain('mcp-secret');
    // Removing the token.
    const cleared = await admin(server, owner, `/mcp/${serverId}`, {
      method: 'PATCH',
      body: { token: null },
    });
    expect(cleared.body.token).toBeNull();
  });

  it('checks what it is sent: 400s with the field, 409 for a name whose tools would be named alike', async () => {
    const cases: [Json, number, string | undefined][] = [
      [{ url: everything.url }, 400, 'name'],
      [{ name: owner.encrypt('No URL') }, 400, 'url'],
      [{ name: owner.encrypt('   '), url: everything.url }, 400, 'name'],
      [{ name: owner.encrypt('Bad scheme'), url: 'ftp://example.com/mcp' }, 400, 'url'],
      [{ name: owner.encrypt('Not a URL'), url: 'not a url' }, 400, 'url'],
      [{ name: owner.encrypt('Creds'), url: 'http://user:pw@example.com/mcp' }, 400, 'url'],
      [{ name: owner.encrypt('Token type'), url: everything.url, token: 42 }, 400, 'token'],
      [{ name: owner.encrypt('Extra'), url: everything.url, extra: true }, 400, undefined],
      [{ name: 'not encrypted', url: everything.url }, 400, undefined],
    ];
    const answers = [];
    for (const [body] of cases) {
      const answer = await admin(server, owner, '/mcp', { body });
      expect(answer.body.error).toEqual(expect.any(String));
      answers.push([answer.status, answer.body.field]);
    }
    expect(answers).toEqual(cases.map(([, status, field]) => [status, field]));
    const empty = await admin(server, owner, `/mcp/${serverId}`, { method: 'PATCH', body: {} });
    expect(empty.status).toBe(400);
    expect(
      (await admin(server, owner, '/mcp/unknown-id', { method: 'PATCH', body: { url: everything.url } }))
        .status,
    ).toBe(404);
    const alike = await admin(server, owner, '/mcp', {
      body: { name: owner.encrypt('everything  DEMO!'), url: everything.url },
    });
    expect(alike.status).toBe(409);
    expect(alike.body).toMatchObject({ code: 'NAME_TAKEN', field: 'name' });
  });
});

describe('admin area: MCP servers may not reach private networks (SSRF)', () => {
  let server: TestServer;
  let owner: Actor;
  let everything: EverythingServer;

  beforeAll(async () => {
    everything = await startEverything();
    // ALLOW_PRIVATE_PROVIDER_URLS is off by default.
    server = await startApp();
    owner = await loginOwner(server, 'acme');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    everything?.stop();
  });

  it('refuses loopback, private and link-local addresses, naming the URL field', async () => {
    const port = new URL(everything.url).port;
    for (const url of [
      everything.url,
      `http://localhost:${port}/mcp`,
      `http://[::1]:${port}/mcp`,
      'http://10.0.0.8/mcp',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const answer = await admin(server, owner, '/mcp', { body: { name: owner.encrypt(`P ${url}`), url } });
      expect([url, answer.status, answer.body.code, answer.body.field]).toEqual([
        url,
        400,
        'URL_NOT_ALLOWED',
        'url',
      ]);
      expect(answer.body.error).toContain('private or local network');
    }
    expect((await admin(server, owner, '/mcp')).body).toEqual([]);
  });
});

describe('callMcpTool with an unreachable server', () => {
  it('is a ToolError naming the server', async () => {
    const server = await startApp({ ALLOW_PRIVATE_PROVIDER_URLS: 'true' });
    try {
      const everything = await startEverything();
      const owner = await loginOwner(server, 'acme');
      const added = await admin(server, owner, '/mcp', {
        body: { name: owner.encrypt('Short lived'), url: everything.url },
      });
      expect(added.status).toBe(201);
      everything.stop();
      await new Promise((resolve) => everything.process.once('exit', resolve));
      const failed = await callMcpTool(
        server.app.db,
        'acme',
        'short-lived__echo',
        { message: 'x' },
        new AbortController().signal,
      ).catch((error) => error);
      expect(failed).toBeInstanceOf(ToolError);
      expect(failed.message).toBe('The tool server Short lived did not answer.');
      const calls = await call(server, '/api/v1/admin/mcp', { token: owner.token, tenant: 'acme' });
      expect(calls.body[0].error).toContain('cannot be reached');
    } finally {
      await server.close();
    }
  }, 60_000);
});
