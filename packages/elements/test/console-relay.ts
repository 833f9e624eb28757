// What the console's elements' browser tests reach the reference server through. On the console the elements call
// the service from its own origin, where an API token is answered; a test page is on another origin, where the service
// rightly refuses one (403 api_token_in_browser, no CORS). This relay stands in for "same origin": it passes each
// request on as a server's call (only the element's own headers, never the page's Origin or Fetch Metadata) and its
// answer back with CORS for the page.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Headers passed on to the service, and back to the page. */
const SENT = ['authorization', 'content-type', 'accept'];
const ANSWERED = ['content-type', 'retry-after', 'ratelimit', 'ratelimit-policy'];

/** A relay on a loopback port to `service` for pages of `pageOrigin`: its URL, and how to stop it. */
export async function startConsoleRelay(service: string, pageOrigin: string): Promise<{ url: string; close(): void }> {
  const cors = {
    'access-control-allow-origin': pageOrigin,
    'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
    'access-control-allow-headers': SENT.join(', '),
    'access-control-expose-headers': ANSWERED.slice(1).join(', '),
    vary: 'Origin',
  };
  async function relay(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(SENT.flatMap((name) => (typeof request.headers[name] === 'string' ? [[name, request.headers[name]]] : [])));
    const answer = await fetch(new URL(request.url ?? '/', service), {
      method: request.method,
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const passed: Record<string, string> = { ...cors };
    for (const name of ANSWERED) {
      const value = answer.headers.get(name);
      if (value) passed[name] = value;
    }
    response.writeHead(answer.status, passed).end(Buffer.from(await answer.arrayBuffer()));
  }
  const server = createServer((request, response) => {
    relay(request, response).catch((error) =>
      response.writeHead(502, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error), code: 'relay' })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => void server.close() };
}
