import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Somebody else's web site, on its own port (so a different origin from the platform): it
 * serves the pages a test registers, and records every request it receives. `/model` stands
 * for the site owner's own server that calls their model for the self-hosted widget.
 */
export interface HostSite {
  readonly url: string;
  page(path: string, html: string): void;
  /** The self-hosted widget's sendMessage posts here; each call is recorded. */
  readonly modelCalls: { system: string; messages: { role: string; content: string }[] }[];
  modelReply: (messages: { role: string; content: string }[]) => string;
  close(): Promise<void>;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

export const startHostSite = async (): Promise<HostSite> => {
  const pages = new Map<string, string>();
  const site: Omit<HostSite, 'url' | 'close'> & { modelReply: HostSite['modelReply'] } = {
    page: (path, html) => void pages.set(path, html),
    modelCalls: [],
    modelReply: (messages) => `You asked: ${messages.at(-1)?.content ?? ''}`,
  };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    if (req.method === 'POST' && path === '/model') {
      const request = JSON.parse(await body(req));
      site.modelCalls.push(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ reply: site.modelReply(request.messages) }));
      return;
    }
    const html = pages.get(path);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // "localhost" rather than 127.0.0.1: another origin than the platform's, still a secure context.
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return Object.assign(site, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
};
