/**
 * `npm run migrate` (and `node dist/migrate.js`): applies the pending migrations in sql/ to
 * DATABASE_URL and exits. Safe to run twice and from two places at once (an advisory lock
 * serialises migrators). `npm start` migrates by itself, the embedded PostgreSQL included;
 * this is for deploys that migrate before they start new instances.
 */
import { migrate } from './adapters/persistence/db.ts';

const fail = (message: string): never => {
  console.error(`migrate: ${message}`);
  process.exit(1);
};

const url = process.env.DATABASE_URL?.trim();
if (!url) fail('set DATABASE_URL to the PostgreSQL to migrate, e.g. postgres://careerbot:secret@db:5432/careerbot');

try {
  const applied = await migrate(url!);
  console.log(applied.length ? `migrate: applied ${applied.join(', ')}` : 'migrate: the database is up to date');
} catch (error) {
  fail((error as Error).message || String(error));
}
