import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, signedInClient } from '@careerbot/testkit';
import { freePorts } from '../../scripts/support/processes.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// `npm run mail:catch` (scripts/dev/mail-catcher.ts) is how the README tells a developer to follow a
// reset link without a mail provider: the service sends through SMTP_URL, the catcher prints it.
let catcher: ChildProcess | undefined;
let app: TestApp | undefined;

afterEach(async () => {
  catcher?.kill('SIGTERM');
  await app?.close();
});

describe('npm run mail:catch', () => {
  it('prints the reset e-mail with its working link, decoded', async () => {
    const [port] = await freePorts(1);
    catcher = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev/mail-catcher.ts'], {
      env: { ...process.env, MAIL_CATCH_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let printed = '';
    catcher.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const until = async (what: RegExp) => {
      const deadline = Date.now() + 20_000;
      while (!what.test(printed) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      return printed;
    };
    expect(await until(/Catching e-mail/)).toContain(`smtp://127.0.0.1:${port}`);

    app = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Career Bot <bot@careerbot.test>' } });
    const owner = await signedInClient(app.baseUrl);
    expect((await new HttpClient(app.baseUrl).post('/api/auth/forgot-password', { identifier: owner.email })).status).toBe(202);

    const output = await until(/reset-password#token=/);
    expect(output).toContain(`to ${owner.email}: Reset your Career Bot password`);
    const link = /http:\/\/\S+\/reset-password#token=([A-Za-z0-9_-]{43})/.exec(output);
    expect(link).not.toBeNull();
    // The printed link is the real one: it sets a new password once.
    const reset = await new HttpClient(app.baseUrl).post('/api/auth/reset-password', { token: link![1], password: 'a brand new password' });
    expect(reset.status).toBe(200);
  });
});
