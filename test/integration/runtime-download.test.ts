// The dashboard's "Start the runtime" step, as an owner runs it on a server that has only
// Node.js: the platform serves the runtime's command as one file; run from a directory with no
// node_modules anywhere above it, it answers a visitor through the provider's SDK with the
// owner's key, and the transcript reaches the dashboard.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeReply, startFakeLlmProvider, type FakeLlmProvider } from '@careerbot/testkit';
import { freePort } from '../support/free-port.ts';
import { ownerWithToken } from '../support/runtime-clients.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const KEY_CANARY = 'sk-canary-DOWNLOADED-runtime-key-3b9e1f';

let fake: FakeLlmProvider;
let app: TestApp;
let directory: string;
let child: ChildProcess | undefined;
beforeAll(async () => {
  fake = await startFakeLlmProvider();
  app = await startTestApp();
  directory = await mkdtemp(path.join(tmpdir(), 'careerbot-runtime-download-'));
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await app?.close();
  await fake?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('the runtime downloaded from the platform', () => {
  it('is one file for Node that starts with the dashboard’s variables, answers a chat and saves its transcript, and stops on SIGTERM', async () => {
    const download = await fetch(`${app.baseUrl}/runtime/careerbot-runtime.mjs`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    const file = path.join(directory, 'careerbot-runtime.mjs');
    await writeFile(file, Buffer.from(await download.arrayBuffer()));

    const owner = await ownerWithToken(app.baseUrl);
    const port = await freePort();
    const output: string[] = [];
    child = spawn(process.execPath, [file], {
      cwd: directory,
      env: {
        PATH: process.env.PATH ?? '',
        CAREERBOT_URL: app.baseUrl,
        CAREERBOT_TOKEN: owner.token,
        LLM_PROVIDER: 'openai',
        LLM_API_KEY: KEY_CANARY,
        OPENAI_BASE_URL: fake.baseUrls.openai,
        ALLOWED_ORIGINS: 'https://ada.example',
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    const runtime = `http://127.0.0.1:${port}`;
    await expect.poll(async () => (await fetch(`${runtime}/healthz`).catch(() => null))?.status, { timeout: 20_000 }).toBe(200);
    fake.respondWith(fakeReply.success('Ada wrote the first published algorithm.'));
    const sessionId = crypto.randomUUID();
    const chat = await fetch(`${runtime}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, messages: [{ role: 'user', content: 'What did Ada build?' }] }),
    });
    expect(chat.status).toBe(200);
    expect(await chat.json()).toEqual({ reply: 'Ada wrote the first published algorithm.', conversationId: expect.any(String) });
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY_CANARY}`);
    expect((await owner.client.get('/api/bots/conversations')).json.items).toMatchObject([{ sessionId, messageCount: 2 }]);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = undefined;
    expect(output.join('')).toContain('careerbot-runtime listening');
    expect(output.join('')).not.toContain(KEY_CANARY);
    expect(output.join('')).not.toContain(owner.token);
  });
});
