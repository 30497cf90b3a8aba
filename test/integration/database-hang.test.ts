import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/adapters/persistence/embedded-postgres.ts';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.ts';

/** The postmaster and every backend it forked: SIGSTOP to all of them is a database that hangs. */
const postgresPids = async (databaseDir: string) => {
  const postmaster = Number((await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  return [postmaster, ...children];
};

describe('a database that hangs (PostgreSQL frozen with SIGSTOP)', () => {
  let postgres: EmbeddedPostgres;
  let service: ServiceProcess;
  let frozen: number[] = [];
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'careerbot-hang-'));
    postgres = await startEmbeddedPostgres({ dataDir, persistent: false, ownSignalHandling: false });
    service = await startServiceProcess({
      DATABASE_URL: postgres.url,
      DATA_DIR: path.join(tmpdir(), 'careerbot-unused'),
      DB_STATEMENT_TIMEOUT_MS: '2000',
      DB_QUERY_TIMEOUT_MS: '3000',
    });
  }, 90_000);
  afterAll(async () => {
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await postgres?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 service_unavailable with Retry-After within the query timeout, and 200 again once it thaws', async () => {
    const { client } = await signedInClient(service.baseUrl);
    const botId = (await client.post('/api/bots', validBot())).json.bot.id as string;
    const publicView = () => new HttpClient(service.baseUrl).get(`/api/bots/${botId}/public`);
    expect((await publicView()).status).toBe(200);

    frozen = await postgresPids(postgres.databaseDir);
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    const started = Date.now();
    // More requests than the pool has connections: those waiting for one are bounded too.
    const answers = await Promise.all(Array.from({ length: 14 }, () => publicView().then((answer) => ({ answer, ms: Date.now() - started }))));
    for (const { answer, ms } of answers) {
      expect(answer.status).toBe(503);
      expect(answer.json).toEqual({ error: 'service_unavailable' });
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(ms).toBeLessThan(8_000);
    }
    const readyz = await new HttpClient(service.baseUrl).get('/readyz');
    expect(readyz.status).toBe(503);

    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    frozen = [];
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await publicView()).status) !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(status).toBe(200);
    expect(service.output()).not.toMatch(/"msg":"unexpected error"/);
  }, 60_000);

  it('PostgreSQL cancels a statement longer than DB_STATEMENT_TIMEOUT_MS', async () => {
    const { parseConfig } = await import('../../src/adapters/config.ts');
    const defaults = parseConfig({});
    expect(defaults.ok && [defaults.config.DB_STATEMENT_TIMEOUT_MS, defaults.config.DB_QUERY_TIMEOUT_MS]).toEqual([5_000, 6_000]);
    const { Db } = await import('../../src/adapters/persistence/db.ts');
    const { isServiceUnavailable } = await import('../../src/adapters/persistence/service-unavailable.ts');
    const db = new Db({ connectionString: postgres.url, statementTimeoutMs: 300, queryTimeoutMs: 5_000 });
    try {
      const error = await db.query('SELECT pg_sleep(2)').then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(isServiceUnavailable(error)).toBe(true);
      expect((await db.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
    } finally {
      await db.close();
    }
  });
});
