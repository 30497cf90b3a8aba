import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

// The platform's bot runtime API (/api/v1/bot/*) answered instantly from memory, in its own
// process, for bench:runtime: what is measured is the runtime, not the platform's database.
// Prints its URL as one JSON line.
const CONFIG = JSON.stringify({
  id: randomUUID(),
  name: 'Ada Lovelace',
  headline: 'Analytical engine programmer',
  personality: 'professional',
  themeColor: '#4f46e5',
  image: '/api/avatars/ada.svg',
  suggestedQuestions: ['What did Ada build?'],
  loadingMessages: ['Thinking…'],
  isActive: true,
  deploymentMode: 'self_hosted',
});
const KNOWLEDGE = JSON.stringify({
  mode: 'full_context',
  context: 'Ada wrote the first published algorithm intended for a machine. She worked with Charles Babbage on the Analytical Engine.',
});
const etag = (json: string) => `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
const CONVERSATION = JSON.stringify({ conversationId: randomUUID() });

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const cached = (json: string) => {
      const tag = etag(json);
      if (req.headers['if-none-match'] === tag) return res.writeHead(304, { etag: tag }).end();
      res.writeHead(200, { 'content-type': 'application/json', etag: tag }).end(json);
    };
    if (req.url === '/api/v1/bot/config') return cached(CONFIG);
    if (req.url === '/api/v1/bot/knowledge') return cached(KNOWLEDGE);
    if (req.url === '/api/v1/bot/conversations') return res.writeHead(200, { 'content-type': 'application/json' }).end(CONVERSATION);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
