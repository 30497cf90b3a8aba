#!/usr/bin/env node
/**
 * Walks through the bot runtime API the way a self-hosted widget uses it.
 *
 *   npm start                                     # in another terminal
 *   node scripts/widget-demo.mjs http://localhost:3000
 *
 * As the owner (session cookie): register, sign in, save the bot, mint a token. Then as the
 * widget, holding only the token: read the config, ask for knowledge, save a transcript
 * twice (the second save resends the whole history plus one message) and capture a lead
 * twice. Then as the owner again: the dashboard stats and the notifications.
 *
 * Plain JavaScript and fetch only. Exits 1 at the first unexpected answer.
 */

const base = (process.argv[2] ?? 'http://localhost:3000').replace(/\/+$/, '');

class UnexpectedAnswer extends Error {}

const show = (label, value) => console.log(`  ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

/** Sends one request; fails the demo unless the status is one of `expected`. */
const call = async (step, { method = 'GET', path, json, headers = {}, cookies }, expected) => {
  const requestHeaders = { ...headers };
  if (json !== undefined) requestHeaders['content-type'] = 'application/json';
  if (cookies?.size) requestHeaders.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(`${base}${path}`, {
    method,
    headers: requestHeaders,
    body: json === undefined ? undefined : JSON.stringify(json),
    redirect: 'manual',
  });
  if (cookies) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair.indexOf('=');
      cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
  }
  const text = await response.text();
  let body;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  const ok = [expected].flat().includes(response.status);
  console.log(`${ok ? '✔' : '✘'} ${step}: ${method} ${path} → ${response.status}`);
  if (!ok) {
    show('expected', [expected].flat().join(' or '));
    show('body', body);
    throw new UnexpectedAnswer(step);
  }
  return { status: response.status, headers: response.headers, body };
};

const check = (claim, holds, detail) => {
  console.log(`${holds ? '✔' : '✘'} ${claim}`);
  if (!holds) {
    show('found', detail);
    throw new UnexpectedAnswer(claim);
  }
};

const main = async () => {
  console.log(`Widget demo against ${base}\n`);

  // ------------------------------------------------------------ the owner sets up the bot
  console.log('The owner');
  const owner = new Map();
  const suffix = Math.random().toString(36).slice(2, 8);
  const email = `demo-${suffix}@example.com`;
  const password = 'correct horse battery';
  await call('register', { method: 'POST', path: '/api/auth/register', json: { username: `demo_${suffix}`, email, password } }, 201);
  const csrf = await call('CSRF token', { path: '/api/auth/csrf', cookies: owner }, 200);
  await call(
    'sign in',
    { method: 'POST', path: '/api/auth/callback/credentials', json: { csrfToken: csrf.body.csrfToken, email, password }, cookies: owner },
    200,
  );
  const saved = await call(
    'save the bot',
    {
      method: 'POST',
      path: '/api/bots',
      cookies: owner,
      json: {
        name: 'Ada Lovelace',
        headline: 'Analytical engine programmer',
        personality: 'professional',
        contextText: 'Ada wrote the first published algorithm for a machine.\n\nShe worked with Charles Babbage on the Analytical Engine.',
        suggestedQuestions: ['What did Ada build?', 'Who did she work with?'],
        llmProvider: 'openai',
      },
    },
    201,
  );
  show('bot id', saved.body.bot.id);
  const minted = await call('mint a bot token', { method: 'POST', path: '/api/bots/tokens', json: { name: 'Demo widget' }, cookies: owner }, 201);
  const token = minted.body.token;
  show('token', `${token.slice(0, 8)}…${minted.body.tokenInfo.lastFour} (shown once)`);

  // ------------------------------------------------------------ the widget, with only the token
  console.log('\nThe widget (Authorization: Bearer <token>, nothing else)');
  const widget = { authorization: `Bearer ${token}` };
  const config = await call('read the config', { path: '/api/v1/bot/config', headers: widget }, 200);
  show('config', config.body);
  await call(
    'read it again with If-None-Match',
    { path: '/api/v1/bot/config', headers: { ...widget, 'if-none-match': config.headers.get('etag') } },
    304,
  );
  const knowledge = await call(
    'ask for knowledge without an embedding key',
    { method: 'POST', path: '/api/v1/bot/knowledge', headers: widget, json: { query: 'Who did Ada work with?' } },
    200,
  );
  check('knowledge comes back as the full context', knowledge.body.mode === 'full_context', knowledge.body);

  const sessionId = crypto.randomUUID();
  const history = [
    { role: 'user', content: 'Hi! What did Ada build?' },
    { role: 'assistant', content: 'She wrote the first published algorithm for a machine.' },
  ];
  const first = await call(
    'save the transcript',
    { method: 'POST', path: '/api/v1/bot/conversations', headers: widget, json: { sessionId, messages: history } },
    201,
  );
  const second = await call(
    'save it again: the whole history plus one message',
    {
      method: 'POST',
      path: '/api/v1/bot/conversations',
      headers: widget,
      json: { sessionId, messages: [...history, { role: 'user', content: 'Thanks, who did she work with?' }] },
    },
    200,
  );
  check('both saves name the same conversation', first.body.conversationId === second.body.conversationId, [first.body, second.body]);

  const lead = { email: 'Recruiter@Example.com', conversationId: first.body.conversationId, contextSummary: 'Hiring for a compiler team' };
  const captured = await call('capture a lead', { method: 'POST', path: '/api/v1/bot/leads', headers: widget, json: lead }, 201);
  show('lead', captured.body);
  const again = await call('capture the same lead again', { method: 'POST', path: '/api/v1/bot/leads', headers: widget, json: lead }, 200);
  check('the second capture is deduplicated to the original', again.body.deduped === true && again.body.lead.id === captured.body.lead.id, again.body);

  // ------------------------------------------------------------ the owner's dashboard
  console.log('\nThe owner again');
  const overview = await call('read the bot and its stats', { path: '/api/bots', cookies: owner }, 200);
  show('stats', overview.body.stats);
  const { totalConversations, totalMessages, totalLeads } = overview.body.stats;
  check(
    'one conversation of 3 messages (no duplicates) and one lead',
    totalConversations === 1 && totalMessages === 3 && totalLeads === 1,
    overview.body.stats,
  );
  const notifications = await call('read the notifications', { path: '/api/notifications', cookies: owner }, [200, 404]);
  if (notifications.status === 404) {
    show('notifications', 'GET /api/notifications is not served yet (404)');
  } else {
    show('unread', notifications.body.unreadCount);
    for (const item of notifications.body.items ?? []) show(item.kind, item.payload);
  }

  console.log('\nDone: every step answered as expected.');
};

main().catch((error) => {
  if (error instanceof UnexpectedAnswer) {
    console.error(`\nStopped: unexpected answer at "${error.message}".`);
  } else {
    console.error(`\nStopped: ${error instanceof Error ? error.message : String(error)} (is the service running at ${base}?)`);
  }
  process.exit(1);
});
