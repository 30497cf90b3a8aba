import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgUserRepository } from '../../src/adapters/persistence/pg-user-repository.ts';
import { ownerWithToken } from '../support/runtime-clients.ts';
import { startSmtpSink, type SmtpSink } from '@careerbot/testkit/smtp';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const SMTP_PASSWORD = 'smtp-pass-DO-NOT-LEAK-42';
const MAIL_FROM = 'Career Bot <bot@careerbot.test>';

const ownerWantingEmails = async (app: TestApp, notify = true) => {
  const owner = await ownerWithToken(app.baseUrl);
  await new PgUserRepository(app.db).setNotifyLeadsEmail(owner.userId, notify);
  return owner;
};

const mentioning = (sink: SmtpSink, text: string) => sink.received.filter((mail) => mail.text.includes(text));

/** Polls the captured log until a line matches; fails after `timeoutMs`. */
const waitForLog = async (app: TestApp, pattern: RegExp, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = app.logs.lines.find((candidate) => pattern.test(candidate));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no log line matching ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const closedPort = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

describe('lead e-mail over SMTP', () => {
  let sink: SmtpSink;
  let app: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await startTestApp({ env: { SMTP_URL: `smtp://careerbot:${SMTP_PASSWORD}@127.0.0.1:${sink.port}`, MAIL_FROM } });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  it('sends a new lead to the owner’s account address after the capture', async () => {
    const owner = await ownerWantingEmails(app);
    const response = await owner.widget.post('/leads', { email: 'first.recruiter@corp.example', contextSummary: 'Hiring a Rust engineer' });
    expect(response.status).toBe(201);
    const mail = await sink.waitFor((candidate) => candidate.text.includes('first.recruiter@corp.example'));
    expect(mail.to).toEqual([owner.email]);
    expect(mail.from).toBe('bot@careerbot.test');
    expect(mail.text).toMatch(/^Subject: New lead for Ada Lovelace: first\.recruiter@corp\.example$/m);
    expect(mail.text).toContain('Hiring a Rust engineer');
  });

  it('sends nothing for a duplicate lead', async () => {
    const owner = await ownerWantingEmails(app);
    expect((await owner.widget.post('/leads', { email: 'dup@corp.example' })).status).toBe(201);
    await sink.waitFor((mail) => mail.text.includes('dup@corp.example'));
    expect((await owner.widget.post('/leads', { email: 'dup@corp.example' })).status).toBe(200);
    expect((await owner.widget.post('/leads', { email: 'after-dup@corp.example' })).status).toBe(201);
    await sink.waitFor((mail) => mail.text.includes('after-dup@corp.example'));
    expect(mentioning(sink, 'dup@corp.example').filter((mail) => !mail.text.includes('after-dup'))).toHaveLength(1);
  });

  it('sends one e-mail for concurrent identical captures', async () => {
    const owner = await ownerWantingEmails(app);
    const responses = await Promise.all(Array.from({ length: 8 }, () => owner.widget.post('/leads', { email: 'race@corp.example' })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect((await owner.widget.post('/leads', { email: 'after-race@corp.example' })).status).toBe(201);
    await sink.waitFor((mail) => mail.text.includes('after-race@corp.example'));
    await sink.waitFor((mail) => mail.text.includes('race@corp.example') && !mail.text.includes('after-race'));
    expect(mentioning(sink, 'race@corp.example').filter((mail) => !mail.text.includes('after-race'))).toHaveLength(1);
  });

  it('sends nothing when the owner has not turned lead e-mails on', async () => {
    const owner = await ownerWantingEmails(app, false);
    expect((await owner.widget.post('/leads', { email: 'quiet@corp.example' })).status).toBe(201);
    await new PgUserRepository(app.db).setNotifyLeadsEmail(owner.userId, true);
    expect((await owner.widget.post('/leads', { email: 'loud@corp.example' })).status).toBe(201);
    await sink.waitFor((mail) => mail.text.includes('loud@corp.example'));
    expect(mentioning(sink, 'quiet@corp.example')).toEqual([]);
  });
});

describe('when SMTP fails', () => {
  it('still answers 201 when the server refuses the message, and logs the failure without secrets', async () => {
    const refusing = await startSmtpSink({ refuse: true });
    const smtpUrl = `smtp://careerbot:${SMTP_PASSWORD}@127.0.0.1:${refusing.port}`;
    const app = await startTestApp({ env: { SMTP_URL: smtpUrl, MAIL_FROM } });
    try {
      const owner = await ownerWantingEmails(app);
      const response = await owner.widget.post('/leads', { email: 'refused@corp.example' });
      expect(response.status).toBe(201);
      expect(response.json.deduped).toBe(false);
      const line = await waitForLog(app, /lead e-mail not sent/);
      expect(line).toContain('550');
      expect(app.logs.text()).not.toContain(SMTP_PASSWORD);
      expect(app.logs.text()).not.toContain(smtpUrl);
      expect((await app.db.query('SELECT email FROM leads WHERE bot_id = $1', [owner.botId])).rows).toEqual([{ email: 'refused@corp.example' }]);
    } finally {
      await app.close();
      await refusing.close();
    }
  });

  it('still answers 201 when the server is down, and logs the failure', async () => {
    const app = await startTestApp({ env: { SMTP_URL: `smtp://careerbot:${SMTP_PASSWORD}@127.0.0.1:${await closedPort()}`, MAIL_FROM } });
    try {
      const owner = await ownerWantingEmails(app);
      expect((await owner.widget.post('/leads', { email: 'down@corp.example' })).status).toBe(201);
      expect(await waitForLog(app, /lead e-mail not sent/)).toContain('SMTP delivery failed (ESOCKET)');
      expect(app.logs.text()).not.toContain(SMTP_PASSWORD);
    } finally {
      await app.close();
    }
  });
});

describe('without SMTP_URL', () => {
  it('writes the e-mail to the log instead, and answers 201', async () => {
    const app = await startTestApp();
    try {
      const owner = await ownerWantingEmails(app);
      expect((await owner.widget.post('/leads', { email: 'logged@corp.example' })).status).toBe(201);
      const line = JSON.parse(await waitForLog(app, /SMTP_URL unset/));
      expect(line.mail).toMatchObject({ to: owner.email, subject: 'New lead for Ada Lovelace: logged@corp.example' });
    } finally {
      await app.close();
    }
  });
});

describe('at shutdown', () => {
  it('waits for a lead e-mail still being sent before it closes', async () => {
    const slowSink = await startSmtpSink({ acceptAfterMs: 700 });
    const app = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${slowSink.port}`, MAIL_FROM } });
    try {
      const owner = await ownerWantingEmails(app);
      const response = await owner.widget.post('/leads', { email: 'late.recruiter@corp.example' });
      expect(response.status).toBe(201);
      expect(mentioning(slowSink, 'late.recruiter@corp.example')).toHaveLength(0); // still on its way
    } finally {
      await app.close();
    }
    expect(mentioning(slowSink, 'late.recruiter@corp.example')).toHaveLength(1);
    await slowSink.close();
  });
});
