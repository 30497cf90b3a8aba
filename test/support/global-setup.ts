import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/adapters/persistence/db.ts';
import { startEmbeddedPostgres } from '../../src/adapters/persistence/embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgServerKind: string;
    pgTemplate: string;
  }
}

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

const tryTestcontainers = async (): Promise<{ url: string; stop: () => Promise<void> } | null> => {
  try {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:16-alpine').start();
    return { url: container.getConnectionUri(), stop: async () => void (await container.stop()) };
  } catch {
    return null;
  }
};

/**
 * Picks the PostgreSQL server for the whole run: TEST_DATABASE_URL, else a testcontainers
 * PostgreSQL when a container runtime answers, else an embedded PostgreSQL. Migrations are
 * applied once to a template; each test file then clones its own database from it.
 */
export default async function setup(project: TestProject) {
  // Per run, so two runs against one server (TEST_DATABASE_URL) don't clash.
  const TEMPLATE_DATABASE = `careerbot_template_${process.pid}`;
  let adminUrl = process.env.TEST_DATABASE_URL;
  let kind = 'TEST_DATABASE_URL';
  let stopServer = async () => {};
  if (!adminUrl) {
    const container = await tryTestcontainers();
    if (container) {
      adminUrl = container.url;
      kind = 'testcontainers';
      stopServer = container.stop;
    }
  }
  if (!adminUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'careerbot-test-pg-'));
    // ownSignalHandling: the package's exit hook (async-exit-hook) would end the run with
    // process.exit(0) on beforeExit, hiding every failed test from CI. The teardown stops it.
    const embedded = await startEmbeddedPostgres({ dataDir, persistent: false, ownSignalHandling: true });
    adminUrl = embedded.url;
    kind = 'embedded';
    stopServer = async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  await migrate(withDatabase(adminUrl, TEMPLATE_DATABASE));

  console.log(`[tests] PostgreSQL: ${kind}`);
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgServerKind', kind);
  project.provide('pgTemplate', TEMPLATE_DATABASE);

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE}`).catch(() => undefined);
    await client.end();
    await stopServer();
  };
}
