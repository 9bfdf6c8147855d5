import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from './server';

/** The reference MCP server (@modelcontextprotocol/server-everything) over Streamable HTTP, in its own process. */
export interface EverythingServer {
  /** Its MCP endpoint. */
  url: string;
  process: ChildProcess;
  output: () => string;
  stop: () => void;
}

/** Starts `mcp-server-everything streamableHttp` on a free port (its PORT variable); its endpoint is `/mcp`. */
export async function startEverything(): Promise<EverythingServer> {
  const port = await freePort();
  const packageJson = createRequire(import.meta.url).resolve(
    '@modelcontextprotocol/server-everything/package.json',
  );
  const entry = join(dirname(packageJson), 'dist', 'index.js');
  let log = '';
  const child = spawn(process.execPath, [entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not start:\n${log}`)), 30_000);
    child.stderr?.on('data', (chunk) => {
      log += chunk;
      if (log.includes('listening on port')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`server-everything exited:\n${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    process: child,
    output: () => log,
    stop: () => {
      child.kill();
    },
  };
}

/**
 * An MCP server that hangs: it takes every request and never answers — or, while `hang` is false,
 * passes requests on to `target` (a real MCP server), so a server can start hanging between calls.
 */
export interface HangingServer {
  url: string;
  hang: boolean;
  /** The headers of every request it took. */
  requests: IncomingHttpHeaders[];
  close: () => Promise<void>;
}

export async function startHangingServer(target?: string): Promise<HangingServer> {
  const requests: IncomingHttpHeaders[] = [];
  const state = { hang: true };
  const server: Server = createServer((incoming, outgoing) => {
    requests.push(incoming.headers);
    if (state.hang || !target) {
      incoming.resume();
      return;
    }
    const forwarded = request(
      target,
      { method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get hang() {
      return state.hang;
    },
    set hang(value: boolean) {
      state.hang = value;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How long `work` took, in ms, and what it answered or threw: for calls to a server that may hang. */
export async function elapsed<T>(work: () => Promise<T>) {
  const started = Date.now();
  try {
    const value = await work();
    return { ms: Date.now() - started, value, error: null as unknown };
  } catch (error) {
    return { ms: Date.now() - started, value: null, error };
  }
}
