import type { NewOwnerKey, OwnerKeyRecord, OwnerKeyRepository, OwnerKeyStatus, SealedSecret } from '../../application/ports.ts';
import type { LlmProvider } from '../../domain/types.ts';
import type { Queryable } from './db.ts';

interface StatusRow {
  provider: LlmProvider;
  azure_endpoint: string | null;
  last_four: string;
  checked: boolean;
  enabled: boolean;
  paused_at: Date | null;
  daily_cap: number;
  created_at: Date;
  updated_at: Date;
}

interface RecordRow extends StatusRow {
  ciphertext: Buffer;
  iv: Buffer;
  auth_tag: Buffer;
  wrapped_data_key: Buffer;
  master_key_id: string;
  master_key_version: number;
}

const STATUS_COLUMNS = 'provider, azure_endpoint, last_four, checked, enabled, paused_at, daily_cap, created_at, updated_at';
const SEALED_COLUMNS = 'ciphertext, iv, auth_tag, wrapped_data_key, master_key_id, master_key_version';

const rowToStatus = (row: StatusRow): OwnerKeyStatus => ({
  provider: row.provider,
  azureEndpoint: row.azure_endpoint,
  lastFour: row.last_four,
  checked: row.checked,
  enabled: row.enabled,
  pausedAt: row.paused_at,
  dailyCap: row.daily_cap,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const rowToSealed = (row: RecordRow): SealedSecret => ({
  ciphertext: row.ciphertext,
  iv: row.iv,
  authTag: row.auth_tag,
  wrappedDataKey: row.wrapped_data_key,
  masterKeyId: row.master_key_id,
  masterKeyVersion: row.master_key_version,
});

// A replaced key is a new key: its added time, its check and its pause start over.
const SAVE = `
  INSERT INTO owner_llm_keys (user_id, provider, azure_endpoint, last_four, ciphertext, iv, auth_tag, wrapped_data_key,
                              master_key_id, master_key_version, checked, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
  ON CONFLICT (user_id) DO UPDATE SET
    provider = EXCLUDED.provider, azure_endpoint = EXCLUDED.azure_endpoint, last_four = EXCLUDED.last_four,
    ciphertext = EXCLUDED.ciphertext, iv = EXCLUDED.iv, auth_tag = EXCLUDED.auth_tag,
    wrapped_data_key = EXCLUDED.wrapped_data_key, master_key_id = EXCLUDED.master_key_id,
    master_key_version = EXCLUDED.master_key_version, checked = EXCLUDED.checked, paused_at = NULL,
    created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
  RETURNING ${STATUS_COLUMNS}`;
const REMOVE = 'DELETE FROM owner_llm_keys WHERE user_id = $1';
const STATUS = `SELECT ${STATUS_COLUMNS} FROM owner_llm_keys WHERE user_id = $1`;
const FOR_CHAT = `SELECT ${STATUS_COLUMNS}, ${SEALED_COLUMNS} FROM owner_llm_keys WHERE user_id = $1`;
const UPDATE_SETTINGS = `
  UPDATE owner_llm_keys SET enabled = COALESCE($2, enabled), daily_cap = COALESCE($3, daily_cap), updated_at = $4
  WHERE user_id = $1 RETURNING ${STATUS_COLUMNS}`;
const PAUSE = 'UPDATE owner_llm_keys SET paused_at = $2 WHERE user_id = $1 AND paused_at IS NULL';
// The row lock of the upsert serialises concurrent answers: exactly `cap` are counted a day.
const COUNT_ANSWER = `
  INSERT INTO owner_key_usage AS u (user_id, day, answered) VALUES ($1, $2::date, 1)
  ON CONFLICT (user_id, day) DO UPDATE SET answered = u.answered + 1 WHERE u.answered < $3
  RETURNING answered`;
const USAGE = `
  SELECT COALESCE(sum(answered) FILTER (WHERE day = $2::date), 0)::int AS today,
         COALESCE(sum(answered), 0)::int AS last_30_days
  FROM owner_key_usage WHERE user_id = $1 AND day > $2::date - 30 AND day <= $2::date`;

const SEALED_UNDER_OTHER_MASTER_KEY = `SELECT user_id, ${SEALED_COLUMNS} FROM owner_llm_keys WHERE master_key_id <> $1 LIMIT $2`;
// Only if nothing replaced the key meanwhile (the same wrapped data key is still there).
const REWRAP = `
  UPDATE owner_llm_keys SET wrapped_data_key = $3, master_key_id = $4, master_key_version = master_key_version + 1
  WHERE user_id = $1 AND wrapped_data_key = $2`;

export class PgOwnerKeyRepository implements OwnerKeyRepository {
  constructor(private readonly q: Queryable) {}

  async save(userId: string, key: NewOwnerKey, now: Date): Promise<OwnerKeyStatus> {
    const s = key.sealed;
    const { rows } = await this.q.query<StatusRow>(SAVE, [
      userId,
      key.provider,
      key.azureEndpoint,
      key.lastFour,
      Buffer.from(s.ciphertext),
      Buffer.from(s.iv),
      Buffer.from(s.authTag),
      Buffer.from(s.wrappedDataKey),
      s.masterKeyId,
      s.masterKeyVersion,
      key.checked,
      now,
    ]);
    return rowToStatus(rows[0]!);
  }

  async remove(userId: string): Promise<boolean> {
    return ((await this.q.query(REMOVE, [userId])).rowCount ?? 0) > 0;
  }

  async status(userId: string): Promise<OwnerKeyStatus | null> {
    const { rows } = await this.q.query<StatusRow>(STATUS, [userId]);
    return rows[0] ? rowToStatus(rows[0]) : null;
  }

  async findForChat(userId: string): Promise<OwnerKeyRecord | null> {
    const { rows } = await this.q.query<RecordRow>(FOR_CHAT, [userId]);
    return rows[0] ? { ...rowToStatus(rows[0]), sealed: rowToSealed(rows[0]) } : null;
  }

  async updateSettings(userId: string, patch: { enabled?: boolean; dailyCap?: number }, now: Date): Promise<OwnerKeyStatus | null> {
    const { rows } = await this.q.query<StatusRow>(UPDATE_SETTINGS, [userId, patch.enabled ?? null, patch.dailyCap ?? null, now]);
    return rows[0] ? rowToStatus(rows[0]) : null;
  }

  async pause(userId: string, now: Date): Promise<boolean> {
    return ((await this.q.query(PAUSE, [userId, now])).rowCount ?? 0) > 0;
  }

  async countAnswer(userId: string, day: string, cap: number): Promise<number | null> {
    const { rows } = await this.q.query<{ answered: number }>(COUNT_ANSWER, [userId, day, cap]);
    return rows[0]?.answered ?? null;
  }

  async usage(userId: string, today: string): Promise<{ today: number; last30Days: number }> {
    const { rows } = await this.q.query<{ today: number; last_30_days: number }>(USAGE, [userId, today]);
    return { today: rows[0]?.today ?? 0, last30Days: rows[0]?.last_30_days ?? 0 };
  }
}

/**
 * Master-key rotation: every stored data key that another master key wrapped is handed to
 * `rewrap` and written back wrapped anew, a batch at a time; a key replaced meanwhile is left
 * as its new save wrote it. Returns how many were re-wrapped.
 */
export const rewrapOwnerKeys = async (
  q: Queryable,
  currentMasterKeyId: string,
  rewrap: (owner: string, sealed: SealedSecret) => { wrappedDataKey: Uint8Array; masterKeyId: string },
  batchSize = 100,
): Promise<number> => {
  let done = 0;
  for (;;) {
    const { rows } = await q.query<RecordRow & { user_id: string }>(SEALED_UNDER_OTHER_MASTER_KEY, [currentMasterKeyId, batchSize]);
    if (rows.length === 0) return done;
    for (const row of rows) {
      const wrapped = rewrap(row.user_id, rowToSealed(row));
      const result = await q.query(REWRAP, [row.user_id, row.wrapped_data_key, Buffer.from(wrapped.wrappedDataKey), wrapped.masterKeyId]);
      done += result.rowCount ?? 0;
    }
  }
};
