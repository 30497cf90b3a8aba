import { createHash } from 'node:crypto';
import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import type pg from 'pg';
import type { Db } from './db.ts';

/** Rows are keyed by SHA-256 of the session id: the database never holds what a cookie carries. */
export const storedSessionKey = (sid: string) => createHash('sha256').update(sid).digest('hex');

/**
 * Sessions in PostgreSQL (revocable, unlike a JWT). The table comes from our migrations;
 * queries go through Db so a lost database is a 503 like everywhere else.
 */
export const createPgSessionStore = (db: Db, onError: (error: unknown) => void) => {
  const PgStore = connectPgSimple(session);
  class HashedPgStore extends PgStore {
    override get(sid: string, done: Parameters<InstanceType<typeof PgStore>['get']>[1]) {
      super.get(storedSessionKey(sid), done);
    }
    override set(sid: string, data: session.SessionData, done?: (error?: unknown) => void) {
      super.set(storedSessionKey(sid), data, done);
    }
    override destroy(sid: string, done?: (error?: unknown) => void) {
      super.destroy(storedSessionKey(sid), done);
    }
    override touch(sid: string, data: session.SessionData, done?: () => void) {
      super.touch(storedSessionKey(sid), data, done);
    }
  }
  return new HashedPgStore({
    pool: { query: (text: string, params?: unknown[]) => db.query(text, params) } as unknown as pg.Pool,
    tableName: 'session',
    createTableIfMissing: false,
    pruneSessionInterval: 15 * 60,
    errorLog: onError,
  });
};
