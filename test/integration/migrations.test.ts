import { afterAll, describe, expect, it } from 'vitest';
import { isReady, migrate, migrationFiles } from '../../src/adapters/persistence/db.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

describe('migrations', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => Promise.all(databases.map((d) => d.drop())));

  const emptyDatabase = async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    return database;
  };

  it('applies every file in order once, and a second run applies nothing', async () => {
    const { url, db } = await emptyDatabase();
    const files = await migrationFiles();
    expect(await isReady(db, files)).toBe(false);
    expect(await migrate(url)).toEqual(files);
    expect(await migrate(url)).toEqual([]);
    expect(await isReady(db, files)).toBe(true);
  });

  it('lets instances that start at once wait on the advisory lock instead of racing', async () => {
    const { url, db } = await emptyDatabase();
    const runs = await Promise.all([migrate(url), migrate(url), migrate(url), migrate(url)]);
    const files = await migrationFiles();
    // Exactly one instance applied everything; the others found nothing left to do.
    expect(runs.filter((applied) => applied.length > 0)).toEqual([files]);
    const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM schema_migrations');
    expect(Number(rows[0]!.n)).toBe(files.length);
  });
});
