import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/test-database.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `npm run migrate` as an operator runs it: its own process, a clean environment. */
const runMigrate = (env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/migrate.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });

describe('npm run migrate, as a command', () => {
  it('applies every migration to an empty database, then finds it up to date', async () => {
    const database = await createTestDatabase({ migrated: false });
    try {
      const first = await runMigrate({ DATABASE_URL: database.url });
      expect(first.code, first.output).toBe(0);
      expect(first.output).toMatch(/^migrate: applied 001_/);
      const tables = await database.db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
      expect(tables.rows.map((row) => row.tablename)).toEqual(expect.arrayContaining(['users', 'bots', 'schema_migrations', 'leads']));
      const second = await runMigrate({ DATABASE_URL: database.url });
      expect(second.code, second.output).toBe(0);
      expect(second.output.trim()).toBe('migrate: the database is up to date');
    } finally {
      await database.drop();
    }
  });

  it('exits 1 with one line when DATABASE_URL is missing or unreachable', async () => {
    const missing = await runMigrate({});
    expect(missing.code).toBe(1);
    expect(missing.output.trim()).toBe('migrate: set DATABASE_URL to the PostgreSQL to migrate, e.g. postgres://careerbot:secret@db:5432/careerbot');
    const unreachable = await runMigrate({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nothing' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.output.trim().split('\n')).toHaveLength(1);
    expect(unreachable.output).toMatch(/^migrate: .*ECONNREFUSED/);
    expect(unreachable.output).not.toContain('    at ');
  });
});
