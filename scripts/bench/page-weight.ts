// What a browser downloads to show the dashboard: requests and bytes of the first load
// (empty cache) and of the next one (warm cache), measured in Debian's Chromium against the
// real service. Prints a table; nothing is asserted. `npm run bench:pages`.
// Then the insights page on a bot with 100,000 conversations: its weight, and the latency of
// its API call (GET /api/bots/insights), whose target is p99 under 100 ms.
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Request } from 'playwright-core';
import { launchBrowser } from '@careerbot/testkit/browser';
import { benchDatabase, cleanUp, freePorts, ROOT, spawnTs, waitForHttp } from '../support/processes.ts';
import { Db } from '../../src/adapters/persistence/db.ts';
import { seedBot } from './support/bench-kit.ts';
import { seedInsights } from './support/insights-seed.ts';

const main = async () => {
  const [port] = await freePorts(1);
  const service = `http://127.0.0.1:${port}`;
  const databaseUrl = await benchDatabase();
  spawnTs('src/main.ts', { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  await waitForHttp(`${service}/readyz`);
  const { client, botId } = await seedBot(service);
  const session = client.cookies.get('careerbot.session-token')!;

  const browser = await launchBrowser();
  const context = await browser.newContext({ baseURL: service });
  await context.addCookies([{ name: 'careerbot.session-token', value: session, url: service }]);
  const page = await context.newPage();

  const load = async () => {
    const seen: { url: string; type: string; bytes: number }[] = [];
    const listener = async (request: Request) => {
      const response = await request.response();
      if (!response) return;
      const sizes = await request.sizes();
      seen.push({ url: request.url(), type: request.resourceType(), bytes: sizes.responseBodySize + sizes.responseHeadersSize });
    };
    page.on('requestfinished', listener);
    await page.goto('/dashboard', { waitUntil: 'networkidle' });
    await page.getByRole('switch', { name: 'Bot active' }).waitFor();
    page.off('requestfinished', listener);
    return seen;
  };

  const rows: [string, number, number][] = [];
  const first = await load();
  rows.push(['first load (empty cache)', first.length, first.reduce((sum, item) => sum + item.bytes, 0)]);
  const warm = await load();
  rows.push(['next load (warm cache)', warm.length, warm.reduce((sum, item) => sum + item.bytes, 0)]);

  console.log('\nDashboard (/dashboard), signed in, over loopback, no compression in the service:\n');
  console.log('load                         requests   bytes on the wire');
  for (const [label, requests, bytes] of rows) console.log(`${label.padEnd(28)} ${String(requests).padStart(8)}   ${bytes.toLocaleString('en')}`);
  console.log('\nFirst load, request by request:');
  for (const item of first) console.log(`  ${item.type.padEnd(10)} ${String(item.bytes).padStart(7)}  ${new URL(item.url).pathname}`);
  console.log('\nThe assets as a proxy with gzip would send them:');
  for (const file of ['app.js', 'app.css']) {
    const bytes = await readFile(path.join(ROOT, 'dist', 'public', file));
    console.log(`  ${file.padEnd(8)} ${bytes.length.toLocaleString('en').padStart(7)} bytes, ${gzipSync(bytes, { level: 9 }).length.toLocaleString('en').padStart(6)} gzipped`);
  }

  // The insights page, on a bot with 100,000 conversations.
  const db = new Db({ connectionString: databaseUrl, max: 1 });
  const seededAt = performance.now();
  await seedInsights(db, botId);
  await db.close();
  console.log(`\nInsights: 100,000 conversations seeded in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`);
  const insightsLoad = async () => {
    const seen: number[] = [];
    const listener = async (request: Request) => {
      const sizes = await request.sizes();
      seen.push(sizes.responseBodySize + sizes.responseHeadersSize);
    };
    page.on('requestfinished', listener);
    await page.goto('/dashboard/insights', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'What visitors ask first' }).waitFor();
    page.off('requestfinished', listener);
    return seen;
  };
  const cold = await insightsLoad();
  const warmInsights = await insightsLoad();
  console.log(`/dashboard/insights: first load ${cold.length} requests, ${cold.reduce((a, b) => a + b, 0).toLocaleString('en')} bytes; next ${warmInsights.length} requests, ${warmInsights.reduce((a, b) => a + b, 0).toLocaleString('en')} bytes`);
  for (const days of [30, 90]) {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      const answer = await client.get(`/api/bots/insights?days=${days}`);
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`insights answered ${answer.status}`);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!.toFixed(1);
    const p99 = Number(at(0.99));
    console.log(`GET /api/bots/insights?days=${days}, 200 calls one after another: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${p99} ms (target < 100 ms: ${p99 < 100 ? 'met' : 'NOT met'})`);
  }
  await browser.close();
};

try {
  await main();
} finally {
  await cleanUp();
}
