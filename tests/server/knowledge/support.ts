import { type Json, postMessage, type TestServer } from '../../support/app';
import { readEvents } from '../../support/sse';
import { type Actor, admin } from '../admin/support';
import { pdfOf } from '../files/support';

/** Uploads a document to a base as the admin area does: multipart, field `file`. */
export async function uploadDocument(
  server: TestServer,
  actor: { token: string; tenant: string },
  baseId: string,
  bytes: Uint8Array,
  name: string,
): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${server.url}/api/v1/admin/knowledge/${baseId}/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${actor.token}`, organization: actor.tenant },
    body: form,
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** Creates a base, its name encrypted as the web app sends it. */
export async function createBase(server: TestServer, actor: Actor, name: string, description?: string) {
  const answer = await admin(server, actor, '/knowledge', {
    body: { name: actor.encrypt(name), ...(description === undefined ? {} : { description }) },
  });
  if (answer.status !== 201) throw new Error(`creating a base failed: ${JSON.stringify(answer.body)}`);
  return answer.body as { _id: string; name: string; description: string; documents: Json[] };
}

/** Waits until no document of the base is queued or indexing (also from a beforeAll); answers the base. */
export async function settled(server: TestServer, actor: Actor, baseId: string, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const base = (await admin(server, actor, `/knowledge/${baseId}`)).body;
    const done = base.documents.every((document: { status: string }) =>
      ['ready', 'failed'].includes(document.status),
    );
    if (done) return base;
    if (Date.now() > deadline) throw new Error(`documents not indexed in time: ${JSON.stringify(base)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends a message and reads the reply's events to the end. */
export async function ask(
  server: TestServer,
  user: { token: string; tenant?: string },
  topicId: string,
  body: { text: string; files?: string[] },
) {
  const response = await postMessage(server, user, topicId, body);
  if (!response.headers.get('content-type')?.includes('text/event-stream'))
    return { status: response.status, text: '', done: null, error: await response.json() };
  const events = await readEvents(response);
  const text = events
    .filter((event) => event.event === 'token')
    .map((event) => event.data.text)
    .join('');
  const last = events.at(-1);
  return {
    status: response.status,
    text,
    done: last?.event === 'done' ? (last.data as Json) : null,
    error: last?.event === 'error' ? (last.data as Json) : null,
  };
}

/** A real PDF made by pdfkit with one page per text, in small print so a long page stays one page. */
export const makePages = (texts: string[]): Promise<Buffer> =>
  pdfOf((document) => {
    for (const text of texts) {
      document.addPage({ margin: 20 });
      document.fontSize(6).text(text);
    }
  });

/** Words that match no question of the tests, to fill pages as long documents are. */
export const filler = (words: number, seed = 0) =>
  Array.from({ length: words }, (_, index) => `lorem${(index + seed) % 97}`).join(' ');
