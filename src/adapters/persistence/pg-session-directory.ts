import { createHash } from 'node:crypto';
import type { OwnerSession, SessionDirectory } from '../../application/ports.ts';
import type { Queryable } from './db.ts';
import { storedSessionKey } from './pg-session-store.ts';

// Rows are keyed by SHA-256 of the cookie's session id (pg-session-store.ts). The list names a
// session by a hash of that key again, so neither the cookie nor the row key leaves the server.
const LISTED_ID_SQL = "substr(encode(sha256(convert_to('listed:' || sid, 'UTF8')), 'hex'), 1, 32)";
const listedId = (storedKey: string) => createHash('sha256').update(`listed:${storedKey}`, 'utf8').digest('hex').slice(0, 32);

const LIST = `SELECT sid, sess, expire FROM session WHERE sess ->> 'userId' = $1 AND expire > now() ORDER BY expire DESC`;
const REVOKE = `DELETE FROM session WHERE sess ->> 'userId' = $1 AND ${LISTED_ID_SQL} = $2`;
const REVOKE_ALL_EXCEPT = `DELETE FROM session WHERE sess ->> 'userId' = $1 AND sid IS DISTINCT FROM $2`;

interface SessionRow {
  sid: string;
  sess: { signedInAt?: string; userAgent?: string; address?: string };
  expire: Date;
}

export class PgSessionDirectory implements SessionDirectory {
  /** `lifetimeMs`: the rolling cookie's max age, so last seen = expiry - lifetime. */
  constructor(
    private readonly q: Queryable,
    private readonly lifetimeMs: number,
  ) {}

  async list(userId: string, currentSid: string | null): Promise<OwnerSession[]> {
    const current = currentSid ? storedSessionKey(currentSid) : null;
    const { rows } = await this.q.query<SessionRow>(LIST, [userId]);
    return rows.map((row) => ({
      id: listedId(row.sid),
      current: row.sid === current,
      createdAt: row.sess.signedInAt ? new Date(row.sess.signedInAt) : null,
      lastSeenAt: new Date(row.expire.getTime() - this.lifetimeMs),
      userAgent: row.sess.userAgent ?? null,
      address: row.sess.address ?? null,
    }));
  }

  async revoke(userId: string, sessionId: string): Promise<boolean> {
    if (!/^[0-9a-f]{32}$/.test(sessionId)) return false;
    return ((await this.q.query(REVOKE, [userId, sessionId])).rowCount ?? 0) > 0;
  }

  async revokeAllExcept(userId: string, keepSid: string | null): Promise<number> {
    const { rowCount } = await this.q.query(REVOKE_ALL_EXCEPT, [userId, keepSid ? storedSessionKey(keepSid) : null]);
    return rowCount ?? 0;
  }
}
