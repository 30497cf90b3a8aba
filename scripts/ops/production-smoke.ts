// What the Dockerfile does, proved without Docker (CI has no container runtime): the built
// output alone in a fresh directory, production dependencies only (no tsx, no esbuild),
// `node dist/migrate.js`, `node dist/main.js`, /readyz, one chat through the fake provider,
// SIGTERM, and a clean exit. Run by .ci/run after `npm run build`; exits 1 on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HttpClient, startFakeLlmProvider, validBot } from '@careerbot/testkit';
import { benchDatabase, cleanUp, freePorts, ROOT, waitForHttp } from '../support/processes.ts';

const step = (text: string) => console.log(`production-smoke: ${text}`);

const main = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'careerbot-prod-'));
  try {
    for (const entry of ['dist', 'sql', 'package.json', 'package-lock.json']) await cp(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
    // The workspaces the service imports by name: each one's manifest and what it built.
    for (const name of await readdir(path.join(ROOT, 'packages'))) {
      for (const entry of ['package.json', 'dist']) await cp(path.join(ROOT, 'packages', name, entry), path.join(dir, 'packages', name, entry), { recursive: true });
    }
    step(`npm ci --omit=dev in ${dir}`);
    const install = spawnSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
    if (install.status !== 0) throw new Error('npm ci --omit=dev failed');
    for (const devOnly of ['tsx', 'esbuild', 'vitest']) {
      if (spawnSync('node', ['-e', `require.resolve('${devOnly}')`], { cwd: dir }).status === 0) throw new Error(`${devOnly} is installed: not a production install`);
    }

    const databaseUrl = await benchDatabase();
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: databaseUrl };
    const migrate = spawnSync('node', ['dist/migrate.js'], { cwd: dir, env, encoding: 'utf8' });
    step(`node dist/migrate.js: ${(migrate.stdout + migrate.stderr).trim()}`);
    if (migrate.status !== 0) throw new Error('migrate failed');

    const provider = await startFakeLlmProvider();
    const [port] = await freePorts(1);
    const service = spawn('node', ['dist/main.js'], {
      cwd: dir,
      env: {
        ...env,
        NODE_ENV: 'production',
        SESSION_SECRET: 'production-smoke-session-secret-0123456789abcdef',
        KEY_ENCRYPTION_KEY: 'b'.repeat(64),
        PORT: String(port),
        HOST: '127.0.0.1',
        OPENAI_BASE_URL: provider.baseUrls.openai,
        LOG_LEVEL: 'info',
        TRUST_PROXY: 'loopback',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    service.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/readyz`);
    step('node dist/main.js answers /readyz');

    // Production cookies are Secure: the service sets them only for https, which a proxy in
    // front terminates. Talk to it as that (trusted, loopback) proxy forwards requests.
    const client = new HttpClient(base);
    const viaProxy = { 'x-forwarded-proto': 'https' };
    const name = `smoke${Date.now().toString(36)}`;
    const password = 'correct horse battery';
    await client.post('/api/auth/register', { username: name, email: `${name}@example.com`, password }, viaProxy);
    const csrf = (await client.get('/api/auth/csrf', viaProxy)).json.csrfToken;
    const signIn = await client.post('/api/auth/callback/credentials', { csrfToken: csrf, email: name, password }, viaProxy);
    if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${signIn.text}`);
    const bot = await client.post('/api/bots', validBot(), viaProxy);
    if (bot.status !== 201) throw new Error(`saving the bot: ${bot.status} ${bot.text}`);
    const chat = await fetch(`${base}/api/chat/${bot.json.bot.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-llm-api-key': 'sk-smoke-key-0123456789' },
      body: JSON.stringify({ message: 'What did Ada build?' }),
    });
    const reply = (await chat.json()) as { reply?: string };
    if (chat.status !== 200 || !reply.reply) throw new Error(`chat: ${chat.status} ${JSON.stringify(reply)}`);
    step(`one chat through the fake provider: "${reply.reply}"`);
    const page = await fetch(`${base}/login`);
    if (page.status !== 200 || !(await page.text()).includes('/assets/app.js')) throw new Error('the sign-in page is not served');
    step('the pages and their assets are served');

    service.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 20_000))]);
    if (code !== 0) throw new Error(`after SIGTERM: ${code}\n${output}`);
    step('SIGTERM: clean exit, code 0');
    await provider.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

try {
  await main();
} catch (error) {
  console.error(`production-smoke: FAILED: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
