import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { Db } from '../../src/adapters/persistence/db.ts';

export interface TestDatabase {
  url: string;
  name: string;
  db: Db;
  drop(): Promise<void>;
}

const adminQuery = async (sql: string) => {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

const databaseUrl = (name: string) => {
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
};

/** A database of its own for one test file: migrated (cloned from the template) or empty. */
export const createTestDatabase = async (options: { migrated?: boolean } = {}): Promise<TestDatabase> => {
  const name = `careerbot_t_${randomBytes(6).toString('hex')}`;
  const template = options.migrated === false ? 'template0' : inject('pgTemplate');
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const url = databaseUrl(name);
  const db = new Db({ connectionString: url, max: 10 });
  return {
    url,
    name,
    db,
    drop: async () => {
      await db.close().catch(() => undefined);
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
};

/**
 * A migrated database for the file and a second pool on it: two app instances sharing one
 * database. Read the fields inside tests (they are set in beforeAll).
 */
export const useTwoInstanceDatabase = () => {
  const shared = {} as { database: TestDatabase; secondPool: Db };
  beforeAll(async () => {
    shared.database = await createTestDatabase();
    shared.secondPool = new Db({ connectionString: shared.database.url, max: 10 });
  });
  afterAll(async () => {
    await shared.secondPool?.close();
    await shared.database?.drop();
  });
  return shared;
};
