import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { providerFetch, RefusedAddress } from '../../security/outbound';

/** How Parley reaches one MCP server: its address, its bearer token, and the SSRF rule. */
export interface McpTarget {
  url: string;
  token: string | null;
  allowPrivate: boolean;
}

/** A tool as an MCP server lists it (its own name). */
export interface ListedTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What a tool call answered: its text, and whether the server marked it as an error. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
}

/** Why a server could not be used, in a sentence an admin can act on; `field` is the form field it is about. */
export class McpFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'unreachable' | 'refused' | 'unauthorized' | 'protocol' | 'stopped',
    readonly field: 'url' | 'token' = 'url',
  ) {
    super(message);
  }
}

const clientInfo = { name: 'parley', version: '1.0.0' };
/** At most this many tools of one server are kept: a bot's model reads every one it is given. */
export const maxTools = 200;
const maxDescription = 1000;

/** Why an address was refused, for tool servers. */
export const refusedMessage = (host: string) =>
  `The address ${host} is on a private or local network, which tool servers may not use ` +
  '(the operator can allow private addresses with ALLOW_PRIVATE_PROVIDER_URLS=true).';

const causeOf = (error: unknown): unknown => (error as { cause?: unknown })?.cause;

/** The error, or one it wraps, that is a RefusedAddress. */
function refusedIn(error: unknown): RefusedAddress | null {
  for (let current = error, depth = 0; current && depth < 5; current = causeOf(current), depth += 1)
    if (current instanceof RefusedAddress) return current;
  return null;
}

/** A failure of the SDK or the network, in words an admin understands. */
function explain(
  error: unknown,
  url: string,
  deadline: AbortSignal,
  caller: AbortSignal | undefined,
  ms: number,
) {
  if (error instanceof McpFailure) return error;
  if (caller?.aborted) return new McpFailure('The call was stopped.', 'stopped');
  const refused = refusedIn(error);
  if (refused) return new McpFailure(refusedMessage(refused.host), 'refused');
  if (deadline.aborted)
    return new McpFailure(`The MCP server at ${url} did not answer within ${ms / 1000} seconds.`, 'timeout');
  if (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403))
    return new McpFailure(
      `The MCP server refused the token (HTTP ${error.code}). Check the token.`,
      'unauthorized',
      'token',
    );
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0)
    return new McpFailure(
      `The address answered HTTP ${error.code}, not as an MCP server (Streamable HTTP). Check the URL.`,
      'protocol',
    );
  const code = (causeOf(error) as { code?: string } | undefined)?.code ?? (error as { code?: unknown })?.code;
  if (
    typeof code === 'string' &&
    /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH)$/.test(code)
  )
    return new McpFailure(`The MCP server at ${url} cannot be reached (${code}).`, 'unreachable');
  if (error instanceof TypeError && /fetch failed/i.test(error.message))
    return new McpFailure(`The MCP server at ${url} cannot be reached.`, 'unreachable');
  const reason = error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
  return new McpFailure(`The MCP server at ${url} did not answer as an MCP server: ${reason}`, 'protocol');
}

/**
 * Connects to an MCP server over Streamable HTTP with the official SDK client, runs `work`, and
 * closes (ending the server's session). Everything — connecting, every request, every redirect —
 * happens within `ms` and through the providers' SSRF guard; `signal` stops it early.
 * Failures are McpFailure.
 */
export async function withMcpClient<T>(
  target: McpTarget,
  ms: number,
  signal: AbortSignal | undefined,
  work: (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>,
): Promise<T> {
  const deadline = AbortSignal.timeout(ms);
  const stop = signal ? AbortSignal.any([deadline, signal]) : deadline;
  const fetchThroughGuard = (input: string | URL, init?: RequestInit) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const signals = [stop, ...(init?.signal ? [init.signal] : [])];
    return providerFetch(
      String(input),
      {
        method: init?.method,
        headers,
        body: typeof init?.body === 'string' ? init.body : undefined,
        signal: AbortSignal.any(signals),
      },
      target.allowPrivate,
    );
  };
  let transport: StreamableHTTPClientTransport;
  try {
    transport = new StreamableHTTPClientTransport(new URL(target.url), {
      fetch: fetchThroughGuard,
      requestInit: target.token ? { headers: { authorization: `Bearer ${target.token}` } } : undefined,
      // One attempt: a server that drops its stream is not called again and again.
      reconnectionOptions: {
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
        maxRetries: 0,
      },
    });
  } catch (error) {
    throw explain(error, target.url, deadline, signal, ms);
  }
  const client = new Client(clientInfo, { capabilities: {} });
  // Errors of the background stream are not the call's: the requests' own answers decide.
  client.onerror = () => {};
  const options = { signal: stop, timeout: ms };
  // The SDK's timeouts and our fetches both stop at the deadline; racing it makes sure nothing outlives it.
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(new Error('aborted'));
    if (stop.aborted) fail();
    else stop.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {});
  try {
    await Promise.race([client.connect(transport, options), aborted]);
    return await Promise.race([work(client, options), aborted]);
  } catch (error) {
    throw explain(error, target.url, deadline, signal, ms);
  } finally {
    // Ends the server's session (best effort, briefly) so it does not keep one per call, then closes ours.
    if (!stop.aborted)
      await Promise.race([
        transport.terminateSession().catch(() => {}),
        new Promise((resolve) => setTimeout(resolve, 2000).unref()),
      ]);
    await client.close().catch(() => {});
  }
}

/** The server's tools (every page of its list), as kept: descriptions shortened, at most `maxTools`. */
export async function listTools(target: McpTarget, ms: number, signal?: AbortSignal): Promise<ListedTool[]> {
  return withMcpClient(target, ms, signal, async (client, options) => {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, options);
      for (const tool of page.tools) {
        tools.push({
          name: tool.name,
          description: (tool.description ?? tool.title ?? '').slice(0, maxDescription),
          parameters: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
        });
      }
      cursor = page.nextCursor;
    } while (cursor && tools.length < maxTools);
    return tools.slice(0, maxTools);
  });
}

type Content = {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  resource?: { text?: string; uri?: string };
};

/** One content item as text: text as is, anything else named by what it is. */
function contentText(item: Content): string {
  if (item.type === 'text') return item.text ?? '';
  if (item.type === 'resource') return item.resource?.text ?? `[resource ${item.resource?.uri ?? ''}]`;
  if (item.type === 'resource_link') return `[link ${item.uri ?? ''}]`;
  return `[${item.type}${item.mimeType ? ` ${item.mimeType}` : ''}]`;
}

/** Calls one tool of the server (its own name) and answers its text content joined. */
export async function callTool(
  target: McpTarget,
  tool: string,
  args: Record<string, unknown>,
  ms: number,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  return withMcpClient(target, ms, signal, async (client, options) => {
    const result = await client.callTool({ name: tool, arguments: args }, undefined, options);
    const content = Array.isArray(result.content) ? (result.content as Content[]) : [];
    let text = content.map(contentText).join('\n');
    if (!text && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
    if (!text && 'toolResult' in result) text = JSON.stringify(result.toolResult);
    return { text, isError: result.isError === true };
  });
}
