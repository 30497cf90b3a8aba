import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, signedInClient, uniqueName } from '@careerbot/testkit';
import { makeSweepRetention } from '../../src/application/conversation-retention.ts';
import { Db } from '../../src/adapters/persistence/db.ts';
import { PgRetentionSweeper } from '../../src/adapters/persistence/pg-retention-sweeper.ts';
import { fixedClock } from '../fakes/clock.ts';
import { ownerWithToken } from '../support/runtime-clients.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '@careerbot/testkit/smtp';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'canary-new-password-7f3a9c';
const clock = fixedClock(new Date().toISOString());
let sink: SmtpSink;
let app: TestApp;
let address = 0;
/** Each test asks from its own client address, so the per-address throttle of one cannot leak into another. */
const freshAddress = () => ({ 'x-forwarded-for': `10.24.${Math.floor(++address / 250)}.${address % 250}` });
/** Every link and token the tests saw: none may appear in a log line. */
const secretsSeen: string[] = [PASSWORD, NEW_PASSWORD];

beforeAll(async () => {
  sink = await startSmtpSink();
  app = await startTestApp({ clock, env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_FROM: 'Career Bot <bot@careerbot.test>', TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await app?.close();
  await sink?.close();
});

/** The text of a mail with quoted-printable escapes decoded. */
const decoded = (mail: ReceivedMail) => mail.text.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const mailsTo = (to: string) => sink.received.filter((mail) => mail.to.includes(to));
const linkIn = (mail: ReceivedMail, page: string) => {
  const match = new RegExp(`(http://[^\\s]+/${page}#token=([A-Za-z0-9_-]{43}))`).exec(decoded(mail));
  if (!match) throw new Error(`no ${page} link in the mail`);
  secretsSeen.push(match[1]!, match[2]!);
  return { link: match[1]!, token: match[2]! };
};

const signIn = async (email: string, password: string, headers: Record<string, string> = {}) => {
  const client = new HttpClient(app.baseUrl);
  const { json } = await client.get('/api/auth/csrf');
  const response = await client.post('/api/auth/callback/credentials', { csrfToken: json.csrfToken, email, password }, headers);
  return { client, status: response.status };
};
const isSignedIn = async (client: HttpClient) => (await client.get('/api/account/sessions')).status === 200;

const forgot = (identifier: string, headers = freshAddress()) => new HttpClient(app.baseUrl).post('/api/auth/forgot-password', { identifier }, headers);

const resetLinkFor = async (email: string) => {
  const before = mailsTo(email).length;
  expect((await forgot(email)).status).toBe(202);
  const mail = await sink.waitFor((candidate) => candidate.to.includes(email) && mailsTo(email).indexOf(candidate) >= before);
  return linkIn(mail, 'reset-password');
};

describe('forgotten password', () => {
  it('answers the same words for an e-mail, a username and an unknown name, and mails only the account', async () => {
    const owner = await signedInClient(app.baseUrl);
    const answers = await Promise.all([forgot(owner.email), forgot(owner.username), forgot(`nobody-${uniqueName()}@example.com`), forgot(uniqueName())]);
    expect(new Set(answers.map((a) => `${a.status} ${a.text}`)).size).toBe(1);
    expect(answers[0]!.status).toBe(202);
    await sink.waitFor(() => mailsTo(owner.email).length === 2);
    const mail = mailsTo(owner.email)[0]!;
    expect(mail.text).toMatch(/^Subject: Reset your Career Bot password$/m);
    expect(linkIn(mail, 'reset-password').link.startsWith(app.baseUrl)).toBe(true);
  });

  it('answers an unknown name in about the time of a known one', async () => {
    const owner = await signedInClient(app.baseUrl);
    const time = async (identifier: string) => {
      const started = performance.now();
      await forgot(identifier);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(owner.email));
      unknown.push(await time(`ghost-${uniqueName()}@example.com`));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(150);
  });

  it('stores only the hash of the token', async () => {
    const owner = await signedInClient(app.baseUrl);
    const { token } = await resetLinkFor(owner.email);
    const { rows } = await app.db.query('SELECT * FROM account_tokens WHERE user_id = $1', [owner.userId]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('sets a new password with the link once, signs the account out everywhere, and refuses the link after', async () => {
    const owner = await signedInClient(app.baseUrl);
    const { token } = await resetLinkFor(owner.email);
    const visitor = new HttpClient(app.baseUrl);
    const concurrent = await Promise.all([
      visitor.post('/api/auth/reset-password', { token, password: NEW_PASSWORD }),
      visitor.post('/api/auth/reset-password', { token, password: 'another password 123' }),
    ]);
    expect(concurrent.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(concurrent.find((r) => r.status === 400)!.json).toEqual({ error: 'This link is invalid, used or expired' });
    expect(await isSignedIn(owner.client)).toBe(false);
    const winner = concurrent.findIndex((r) => r.status === 200) === 0 ? NEW_PASSWORD : 'another password 123';
    expect((await signIn(owner.email, winner)).status).toBe(200);
    expect((await signIn(owner.email, PASSWORD)).status).toBe(401);
    expect((await visitor.post('/api/auth/reset-password', { token, password: NEW_PASSWORD })).status).toBe(400);
  });

  it('refuses a link after 30 minutes', async () => {
    const owner = await signedInClient(app.baseUrl);
    const { token } = await resetLinkFor(owner.email);
    clock.advance(30 * 60 * 1000 + 1000);
    const response = await new HttpClient(app.baseUrl).post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(response.status).toBe(400);
    expect((await signIn(owner.email, PASSWORD)).status).toBe(200);
  });

  it('sends at most 3 links per account in 15 minutes, with the same answer after', async () => {
    const owner = await signedInClient(app.baseUrl);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await forgot(i % 2 ? owner.username : owner.email));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    await sink.waitFor(() => mailsTo(owner.email).length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(owner.email)).toHaveLength(3);
  });

  it('refuses a client address after 20 requests in 15 minutes', async () => {
    const from = freshAddress();
    const statuses = [];
    for (let i = 0; i < 21; i++) statuses.push((await forgot(`x${i}-${uniqueName()}@example.com`, from)).status);
    expect(statuses.slice(0, 20).every((s) => s === 202)).toBe(true);
    const refused = await forgot('last@example.com', from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await forgot('other@example.com')).status).toBe(202);
  });
});

describe('account changes', () => {
  it('changes the password with the current one and signs out every other session', async () => {
    const owner = await signedInClient(app.baseUrl);
    const other = await signIn(owner.email, PASSWORD);
    const wrong = await owner.client.post('/api/account/password', { currentPassword: 'not it at all', newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: 'The current password is wrong' });
    expect(await isSignedIn(other.client)).toBe(true);
    const changed = await owner.client.post('/api/account/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    expect(changed.json).toEqual({ signedOut: 1 });
    expect(await isSignedIn(other.client)).toBe(false);
    expect(await isSignedIn(owner.client)).toBe(true);
    expect((await signIn(owner.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('changes the e-mail only when the link sent to the new address is used, and signs out the other sessions', async () => {
    const owner = await signedInClient(app.baseUrl);
    const other = await signIn(owner.email, PASSWORD);
    const newEmail = `${uniqueName('new')}@example.com`;
    expect((await owner.client.post('/api/account/email', { password: 'wrong password', newEmail })).status).toBe(400);
    const asked = await owner.client.post('/api/account/email', { password: PASSWORD, newEmail });
    expect(asked.status).toBe(202);
    const confirmation = await sink.waitFor((mail) => mail.to.includes(newEmail));
    const notice = await sink.waitFor((mail) => mail.to.includes(owner.email) && mail.text.includes(newEmail));
    expect(notice.text).not.toMatch(/token=/);
    const { token } = linkIn(confirmation, 'confirm-email');
    // Nothing changed yet.
    expect((await signIn(newEmail, PASSWORD)).status).toBe(401);
    expect(await isSignedIn(other.client)).toBe(true);

    const confirmed = await owner.client.post('/api/auth/confirm-email', { token });
    expect(confirmed.json).toEqual({ email: newEmail });
    expect((await owner.client.get('/api/auth/session')).json.user.email).toBe(newEmail);
    expect(await isSignedIn(other.client)).toBe(false);
    expect((await signIn(newEmail, PASSWORD)).status).toBe(200);
    expect((await signIn(owner.email, PASSWORD)).status).toBe(401);
    expect((await owner.client.post('/api/auth/confirm-email', { token })).status).toBe(400);
  });

  it('answers a taken address as register does, at the request and at the confirmation', async () => {
    const owner = await signedInClient(app.baseUrl);
    const rival = await signedInClient(app.baseUrl);
    const taken = await owner.client.post('/api/account/email', { password: PASSWORD, newEmail: rival.email });
    expect(taken.status).toBe(409);
    expect(taken.json).toEqual({ error: 'A user with this email already exists' });

    const wanted = `${uniqueName('race')}@example.com`;
    expect((await owner.client.post('/api/account/email', { password: PASSWORD, newEmail: wanted })).status).toBe(202);
    const { token } = linkIn(await sink.waitFor((mail) => mail.to.includes(wanted)), 'confirm-email');
    expect((await new HttpClient(app.baseUrl).post('/api/auth/register', { username: uniqueName(), email: wanted, password: PASSWORD })).status).toBe(201);
    const late = await owner.client.post('/api/auth/confirm-email', { token });
    expect(late.status).toBe(409);
    expect(late.json).toEqual({ error: 'A user with this email already exists' });
  });
});

describe('sessions', () => {
  it('lists where the owner is signed in, signs one out, then every other', async () => {
    const owner = await signedInClient(app.baseUrl);
    const firefox = await signIn(owner.email, PASSWORD, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', ...freshAddress() });
    const phone = await signIn(owner.email, PASSWORD, { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' });
    const listed = (await owner.client.get('/api/account/sessions')).json.items as { id: string; current: boolean; browser: string; address: string; createdAt: string; lastSeenAt: string }[];
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    expect(listed.map((s) => s.browser).sort()).toEqual(['Firefox on Linux', 'Node.js', 'Safari on iOS']);
    expect(listed.find((s) => s.browser === 'Firefox on Linux')!.address).toMatch(/^10\.24\./);
    expect(JSON.stringify(listed)).not.toContain(owner.client.cookieHeader().split('=')[1]!.slice(4, 20));

    const firefoxId = listed.find((s) => s.browser === 'Firefox on Linux')!.id;
    expect((await owner.client.delete(`/api/account/sessions/${firefoxId}`)).status).toBe(204);
    expect(await isSignedIn(firefox.client)).toBe(false);
    expect(await isSignedIn(phone.client)).toBe(true);
    expect((await owner.client.delete(`/api/account/sessions/${firefoxId}`)).status).toBe(404);

    // Another owner cannot sign this one's session out.
    const stranger = await signedInClient(app.baseUrl);
    const phoneId = (await phone.client.get('/api/account/sessions')).json.items.find((s: { current: boolean }) => s.current).id;
    expect((await stranger.client.delete(`/api/account/sessions/${phoneId}`)).status).toBe(404);

    expect((await owner.client.post('/api/account/sessions/revoke-others')).json).toEqual({ signedOut: 1 });
    expect(await isSignedIn(phone.client)).toBe(false);
    expect(await isSignedIn(owner.client)).toBe(true);
  });
});

describe('export', () => {
  it('holds the account, bot, conversations with messages, leads, notifications and token metadata, and no secret', async () => {
    const owner = await ownerWithToken(app.baseUrl);
    const sessionId = crypto.randomUUID();
    const saved = await owner.widget.post('/conversations', { sessionId, messages: [{ role: 'user', content: 'Hello canary question' }, { role: 'assistant', content: 'Hi there' }] });
    expect(saved.status).toBe(201);
    expect((await owner.widget.post('/leads', { email: 'recruiter@corp.example', conversationId: saved.json.conversationId })).status).toBe(201);
    const response = await owner.client.get('/api/account/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="careerbot-export-/);
    const data = response.json;
    expect(data.account).toMatchObject({ id: owner.userId, username: owner.username, email: owner.email });
    expect(data.bot.id).toBe(owner.botId);
    expect(data.tokens.map((t: { id: string }) => t.id)).toEqual([owner.tokenId]);
    expect(data.conversations).toHaveLength(1);
    expect(data.conversations[0].messages.map((m: { content: string }) => m.content)).toEqual(['Hello canary question', 'Hi there']);
    expect(data.leads.map((l: { email: string }) => l.email)).toEqual(['recruiter@corp.example']);
    expect(data.notifications.length).toBeGreaterThanOrEqual(2);

    const { rows } = await app.db.query<{ password_hash: string; token_hash: string }>(
      'SELECT u.password_hash, t.token_hash FROM users u JOIN bots b ON b.user_id = u.id JOIN bot_tokens t ON t.bot_id = b.id WHERE u.id = $1',
      [owner.userId],
    );
    for (const secret of [owner.token, rows[0]!.token_hash, rows[0]!.password_hash, owner.password]) expect(response.text).not.toContain(secret);
    expect(response.text).not.toMatch(/hash|password/i);
  });

  it('streams a bot with 100,000 messages', { timeout: 60_000 }, async () => {
    const owner = await ownerWithToken(app.baseUrl);
    const saved = await owner.widget.post('/conversations', { sessionId: crypto.randomUUID(), messages: [{ role: 'user', content: 'first' }] });
    await app.db.query(
      `INSERT INTO conversation_messages (conversation_id, position, role, content, created_at)
       SELECT $1, n, CASE WHEN n % 2 = 0 THEN 'user' ELSE 'assistant' END, 'message ' || n, now() FROM generate_series(1, 99999) AS n`,
      [saved.json.conversationId],
    );
    const response = await fetch(`${app.baseUrl}/api/account/export`, { headers: { cookie: owner.client.cookieHeader() } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const data = await response.json();
    expect(data.conversations[0].messages).toHaveLength(100_000);
    expect(data.conversations[0].messages[99_999].content).toBe('message 99999');
  });
});

/** Every table of the schema, searched as text for each value: names found where any row holds one. */
const rowsNaming = async (db: Db, values: string[]) => {
  const { rows: tables } = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['users', 'bots', 'conversations', 'session', 'sign_in_failures', 'rate_limit_buckets']));
  const found: string[] = [];
  for (const { table_name } of tables) {
    for (const value of values) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" t WHERE strpos(lower(t::text), lower($1)) > 0`, [value]);
      if (rows[0]!.n > 0) found.push(`${table_name}: ${rows[0]!.n} row(s) with ${value}`);
    }
  }
  return found;
};

describe('deleting the account', () => {
  it('needs the password and the username typed out', async () => {
    const owner = await signedInClient(app.baseUrl);
    expect((await owner.client.post('/api/account/delete', { password: 'wrong password', username: owner.username })).json).toEqual({ error: 'The current password is wrong' });
    expect((await owner.client.post('/api/account/delete', { password: PASSWORD, username: 'someone-else' })).json).toEqual({ error: 'Type your username to confirm' });
    expect(await isSignedIn(owner.client)).toBe(true);
  });

  it('leaves no row anywhere that names the account or its bot; the bot is unknown; the names are free', async () => {
    const owner = await ownerWithToken(app.baseUrl);
    const other = await signIn(owner.email, PASSWORD);
    await owner.widget.post('/conversations', { sessionId: crypto.randomUUID(), messages: [{ role: 'user', content: 'hi' }] });
    await owner.widget.post('/leads', { email: 'lead@corp.example' });
    await owner.widget.post('/knowledge', { query: 'what' });
    await signIn(owner.username, 'a wrong password');
    await forgot(owner.email);
    await owner.client.post('/api/account/email', { password: PASSWORD, newEmail: `${uniqueName('pending')}@example.com` });
    const named = [owner.userId, owner.botId, owner.email, owner.username];
    expect((await rowsNaming(app.db, named)).length).toBeGreaterThan(5);

    const deleted = await owner.client.post('/api/account/delete', { password: PASSWORD, username: owner.username.toUpperCase() });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ deleted: true });

    expect(await rowsNaming(app.db, named)).toEqual([]);
    expect(await isSignedIn(owner.client)).toBe(false);
    expect(await isSignedIn(other.client)).toBe(false);
    const visitor = new HttpClient(app.baseUrl);
    expect((await visitor.get(`/api/bots/${owner.botId}/public`)).status).toBe(404);
    expect((await visitor.get(`/b/${owner.botId}`, { accept: 'text/html' })).status).toBe(404);
    expect((await visitor.get(`/api/avatars/${owner.botId}.svg`)).status).toBe(404);
    expect((await visitor.post(`/api/chat/${owner.botId}`, { message: 'hi' }, { 'x-llm-api-key': 'sk-test' })).status).toBe(404);
    expect((await owner.widget.get('/config')).status).toBe(401);
    const again = await new HttpClient(app.baseUrl).post('/api/auth/register', { username: owner.username, email: owner.email, password: PASSWORD });
    expect(again.status).toBe(201);
  });
});

describe('retention', () => {
  const ageConversations = async (botId: string, days: number) =>
    app.db.query("UPDATE conversations SET last_message_at = $2::timestamptz - make_interval(days => $3) WHERE bot_id = $1", [botId, clock.now(), days]);

  const ownerWithConversations = async (count: number) => {
    const owner = await ownerWithToken(app.baseUrl);
    for (let i = 0; i < count; i++) await owner.widget.post('/conversations', { sessionId: crypto.randomUUID(), messages: [{ role: 'user', content: `q${i}` }] });
    return owner;
  };

  it('is set from 30 to 730 days, or never', async () => {
    const owner = await signedInClient(app.baseUrl);
    expect((await owner.client.get('/api/account/retention')).json).toEqual({ days: null });
    expect((await owner.client.patch('/api/account/retention', { days: 29 })).status).toBe(400);
    expect((await owner.client.patch('/api/account/retention', { days: 731 })).status).toBe(400);
    expect((await owner.client.patch('/api/account/retention', { days: 90 })).json).toEqual({ days: 90 });
    expect((await owner.client.get('/api/account/retention')).json).toEqual({ days: 90 });
    expect((await owner.client.patch('/api/account/retention', { days: null })).json).toEqual({ days: null });
  });

  it('deletes exactly the conversations older than the owner’s setting, with two instances at once; counters keep their totals', async () => {
    const keeping = await ownerWithConversations(3);
    const expiring = await ownerWithConversations(9);
    await expiring.client.patch('/api/account/retention', { days: 30 });
    await ageConversations(keeping.botId, 400);
    await ageConversations(expiring.botId, 31);
    const young = await expiring.widget.post('/conversations', { sessionId: crypto.randomUUID(), messages: [{ role: 'user', content: 'recent' }] });
    const totalsBefore = (await expiring.client.get('/api/bots')).json.stats;

    const second = new Db({ connectionString: app.database.url });
    try {
      const instances = [app.db, second].map((db) => makeSweepRetention({ sweeper: new PgRetentionSweeper(db), clock, batchSize: 2 }));
      let deleted = 0;
      for (let round = 0; round < 10; round++) deleted += (await Promise.all(instances.map((sweep) => sweep()))).reduce((a, b) => a + b, 0);
      expect(deleted).toBe(9);
    } finally {
      await second.close();
    }
    const left = await app.db.query<{ id: string; bot_id: string }>('SELECT id, bot_id FROM conversations WHERE bot_id = ANY($1)', [[keeping.botId, expiring.botId]]);
    expect(left.rows.filter((r) => r.bot_id === keeping.botId)).toHaveLength(3);
    expect(left.rows.filter((r) => r.bot_id === expiring.botId).map((r) => r.id)).toEqual([young.json.conversationId]);
    expect((await expiring.client.get('/api/bots')).json.stats).toEqual(totalsBefore);
  });

  it('lets one instance work on a batch at a time: another waits its turn', async () => {
    const owner = await ownerWithConversations(2);
    await owner.client.patch('/api/account/retention', { days: 30 });
    await ageConversations(owner.botId, 60);
    const holder = await app.db.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(240024)');
      expect(await new PgRetentionSweeper(app.db).sweepBatch(clock.now(), 10)).toBe('busy');
      expect((await app.db.query('SELECT 1 FROM conversations WHERE bot_id = $1', [owner.botId])).rowCount).toBe(2);
    } finally {
      await holder.query('SELECT pg_advisory_unlock(240024)');
      holder.release();
    }
    expect(await new PgRetentionSweeper(app.db).sweepBatch(clock.now(), 10)).toBeGreaterThanOrEqual(2);
  });
});

describe('canaries', () => {
  it('no token, password or link appears in a log line', () => {
    expect(secretsSeen.length).toBeGreaterThan(10);
    const logs = app.logs.text();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secretsSeen) expect(logs).not.toContain(secret);
    expect(logs).not.toMatch(/token=[A-Za-z0-9_-]{20}/);
  });

  it('the log mailer (no SMTP_URL) writes the reset e-mail with its link redacted', async () => {
    const quiet = await startTestApp();
    try {
      const owner = await signedInClient(quiet.baseUrl);
      expect((await new HttpClient(quiet.baseUrl).post('/api/auth/forgot-password', { identifier: owner.email })).status).toBe(202);
      const deadline = Date.now() + 5000;
      while (!quiet.logs.text().includes('Reset your Career Bot password') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const logs = quiet.logs.text();
      expect(logs).toContain('Reset your Career Bot password');
      expect(logs).toContain('[redacted]');
      expect(logs).not.toMatch(/reset-password#token=/);
    } finally {
      await quiet.close();
    }
  });
});
