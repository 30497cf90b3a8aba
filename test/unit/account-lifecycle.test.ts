import { describe, expect, it } from 'vitest';
import { makeChangePassword, makeConfirmEmailChange, makeRequestEmailChange } from '../../src/application/account-changes.ts';
import { makeRequestPasswordReset, makeResetPassword, RESET_LIMITS } from '../../src/application/account-recovery.ts';
import { makeDeleteAccount } from '../../src/application/delete-account.ts';
import { makeSweepRetention } from '../../src/application/conversation-retention.ts';
import { hashAccountLinkToken } from '../../src/domain/account-link.ts';
import { browserName } from '../../src/domain/browser-name.ts';
import { fixedClock } from '../fakes/clock.ts';
import { FakeMailer } from '../fakes/fake-mailer.ts';
import { FakePasswordHasher } from '../fakes/fake-password-hasher.ts';
import { InMemoryAccountRepository, InMemoryAccountTokenRepository, InMemorySessionDirectory } from '../fakes/in-memory-account-lifecycle.ts';
import { InMemorySignInThrottle } from '../fakes/in-memory-sign-in-throttle.ts';
import { InMemoryUserRepository } from '../fakes/in-memory-user-repository.ts';

const ORIGIN = 'https://careerbot.example';

const setup = async () => {
  const users = new InMemoryUserRepository();
  const accounts = new InMemoryAccountRepository(users);
  const links = new InMemoryAccountTokenRepository();
  const sessions = new InMemorySessionDirectory();
  const hasher = new FakePasswordHasher();
  const mailer = new FakeMailer();
  const clock = fixedClock();
  const failures: unknown[] = [];
  const user = (await users.create({ username: 'ada', email: 'ada@example.com', passwordHash: await hasher.hash('old password') }, clock.now())) as { id: string };
  const deps = { users, accounts, links, sessions, hasher, mailer, clock, throttle: new InMemorySignInThrottle(), reportMailFailure: (e: unknown) => failures.push(e) };
  return { ...deps, userId: user.id, failures };
};

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const tokenOf = (text: string) => /#token=([A-Za-z0-9_-]{43})/.exec(text)![1]!;

describe('password reset', () => {
  it('mails a link for an e-mail or a username, and nothing for an unknown name, with the same answer', async () => {
    const d = await setup();
    const request = makeRequestPasswordReset(d);
    const answers = await Promise.all(['ada@example.com', ' ADA ', 'nobody'].map((identifier) => request({ identifier, clientAddress: '1.2.3.4', origin: ORIGIN })));
    await flush();
    expect(answers).toEqual([{ ok: true, value: { accepted: true } }, { ok: true, value: { accepted: true } }, { ok: true, value: { accepted: true } }]);
    expect(d.mailer.sent.map((m) => m.to)).toEqual(['ada@example.com', 'ada@example.com']);
    const link = d.mailer.sent[0]!.text.match(/https:\S+/)![0];
    expect(link.startsWith(`${ORIGIN}/reset-password#token=`)).toBe(true);
    expect(d.mailer.sent[0]!.secrets).toContain(link);
    // Only the hash is kept.
    expect([...d.links.rows.keys()]).toContain(hashAccountLinkToken(tokenOf(link)));
  });

  it('stops mailing an account past its limit, silently', async () => {
    const d = await setup();
    const request = makeRequestPasswordReset(d);
    for (let i = 0; i < RESET_LIMITS.perAccount + 2; i++) expect((await request({ identifier: 'ada', clientAddress: `10.0.0.${i}`, origin: ORIGIN })).ok).toBe(true);
    await flush();
    expect(d.mailer.sent).toHaveLength(RESET_LIMITS.perAccount);
  });

  it('refuses an address past its limit', async () => {
    const d = await setup();
    const request = makeRequestPasswordReset(d);
    for (let i = 0; i < RESET_LIMITS.perAddress; i++) await request({ identifier: `n${i}`, clientAddress: '9.9.9.9', origin: ORIGIN });
    expect(await request({ identifier: 'ada', clientAddress: '9.9.9.9', origin: ORIGIN })).toMatchObject({ ok: false, error: { type: 'throttled' } });
  });

  it('sets the password once per link, signs out every session, and refuses an expired link', async () => {
    const d = await setup();
    d.sessions.add('s1', d.userId);
    d.sessions.add('s2', d.userId);
    await makeRequestPasswordReset(d)({ identifier: 'ada', clientAddress: 'a', origin: ORIGIN });
    await flush();
    const token = tokenOf(d.mailer.sent[0]!.text);
    const reset = makeResetPassword(d);
    expect(await reset({ token, password: 'new password' })).toEqual({ ok: true, value: { userId: d.userId } });
    expect(await reset({ token, password: 'again password' })).toEqual({ ok: false, error: { type: 'invalid_link' } });
    expect(await d.hasher.verify('new password', (await d.accounts.credentialsOf(d.userId))!.passwordHash)).toBe(true);
    expect(d.sessions.sessions.size).toBe(0);

    await makeRequestPasswordReset(d)({ identifier: 'ada', clientAddress: 'b', origin: ORIGIN });
    await flush();
    d.clock.advance(30 * 60 * 1000 + 1);
    expect(await reset({ token: tokenOf(d.mailer.sent[1]!.text), password: 'late password' })).toEqual({ ok: false, error: { type: 'invalid_link' } });
  });
});

describe('changes', () => {
  it('changes the password with the current one and keeps only this session', async () => {
    const d = await setup();
    d.sessions.add('mine', d.userId);
    d.sessions.add('other', d.userId);
    const change = makeChangePassword(d);
    expect(await change({ userId: d.userId, currentSid: 'mine', currentPassword: 'wrong', newPassword: 'new password' })).toEqual({ ok: false, error: { type: 'wrong_password' } });
    expect(await change({ userId: d.userId, currentSid: 'mine', currentPassword: 'old password', newPassword: 'new password' })).toEqual({ ok: true, value: { signedOut: 1 } });
    expect([...d.sessions.sessions.keys()]).toEqual(['mine']);
  });

  it('changes the e-mail only on confirmation, after a notice to the old address', async () => {
    const d = await setup();
    d.sessions.add('mine', d.userId);
    d.sessions.add('other', d.userId);
    const asked = await makeRequestEmailChange(d)({ userId: d.userId, password: 'old password', newEmail: 'new@example.com', origin: ORIGIN });
    await flush();
    expect(asked).toEqual({ ok: true, value: { pending: 'new@example.com' } });
    expect(d.mailer.sent.map((m) => m.to).sort()).toEqual(['ada@example.com', 'new@example.com']);
    expect((await d.accounts.credentialsOf(d.userId))!.email).toBe('ada@example.com');
    const token = tokenOf(d.mailer.sent.find((m) => m.to === 'new@example.com')!.text);
    expect(await makeConfirmEmailChange(d)({ token, currentSid: 'mine' })).toEqual({ ok: true, value: { userId: d.userId, email: 'new@example.com' } });
    expect((await d.accounts.credentialsOf(d.userId))!.email).toBe('new@example.com');
    expect([...d.sessions.sessions.keys()]).toEqual(['mine']);
  });

  it('refuses a taken address, the same address and a wrong password', async () => {
    const d = await setup();
    await d.users.create({ username: 'bob', email: 'bob@example.com', passwordHash: 'x' }, d.clock.now());
    const request = makeRequestEmailChange(d);
    const input = { userId: d.userId, password: 'old password', origin: ORIGIN };
    expect(await request({ ...input, newEmail: 'bob@example.com' })).toEqual({ ok: false, error: { type: 'email_taken' } });
    expect(await request({ ...input, newEmail: 'ada@example.com' })).toEqual({ ok: false, error: { type: 'same_email' } });
    expect(await request({ ...input, password: 'nope', newEmail: 'c@example.com' })).toEqual({ ok: false, error: { type: 'wrong_password' } });
  });
});

describe('deletion and retention', () => {
  it('erases only after the password and the username typed out', async () => {
    const d = await setup();
    const erased: string[] = [];
    const del = makeDeleteAccount({ ...d, eraser: { erase: async (userId) => (erased.push(userId), { botId: 'b' }) }, afterErase: () => {} });
    expect(await del({ userId: d.userId, password: 'bad', username: 'ada' })).toEqual({ ok: false, error: { type: 'wrong_password' } });
    expect(await del({ userId: d.userId, password: 'old password', username: 'bob' })).toEqual({ ok: false, error: { type: 'username_mismatch' } });
    expect(erased).toEqual([]);
    expect(await del({ userId: d.userId, password: 'old password', username: ' Ada ' })).toEqual({ ok: true, value: { deleted: true } });
    expect(erased).toEqual([d.userId]);
  });

  it('sweeps batch after batch, and stops when another instance holds the lock', async () => {
    let left = 7;
    let refusedLeft = 5;
    const refusedBefore: Date[] = [];
    const clock = fixedClock();
    const sweep = makeSweepRetention({
      sweeper: {
        sweepBatch: async (_now, size) => { const n = Math.min(size, left); left -= n; return n; },
        sweepRefusedBatch: async (before, size) => { refusedBefore.push(before); const n = Math.min(size, refusedLeft); refusedLeft -= n; return n; },
      },
      clock,
      batchSize: 3,
    });
    expect(await sweep()).toBe(7);
    // Refused messages go after 30 days, whatever the owner's retention, batch after batch too.
    expect(refusedLeft).toBe(0);
    expect(refusedBefore.map((d) => clock.now().getTime() - d.getTime())).toEqual([30 * 24 * 60 * 60 * 1000, 30 * 24 * 60 * 60 * 1000]);
    const busy = makeSweepRetention({ sweeper: { sweepBatch: async () => 'busy' as const, sweepRefusedBatch: async () => 'busy' as const }, clock: fixedClock(), batchSize: 3 });
    expect(await busy()).toBe(0);
  });
});

describe('browser names', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15', 'Safari on macOS'],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['curl/8.5.0', 'curl'],
    [null, 'Unknown browser'],
  ])('%s → %s', (userAgent, name) => {
    expect(browserName(userAgent)).toBe(name);
  });
});
