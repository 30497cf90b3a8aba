import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import type pg from 'pg';
import type { Db } from './db.ts';

/**
 * Sessions in PostgreSQL (revocable, unlike a JWT). The table comes from our migrations;
 * queries go through Db so a lost database is a 503 like everywhere else.
 */
export const createPgSessionStore = (db: Db, onError: (error: unknown) => void) => {
  const PgStore = connectPgSimple(session);
  return new PgStore({
    pool: { query: (text: string, params?: unknown[]) => db.query(text, params) } as unknown as pg.Pool,
    tableName: 'session',
    createTableIfMissing: false,
    pruneSessionInterval: 15 * 60,
    errorLog: onError,
  });
};
