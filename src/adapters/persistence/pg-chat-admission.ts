import type { ChatAdmission, ChatTarget, RateLimitDecision, RateLimits } from '../../application/ports.ts';
import { effectiveRateLimits } from '../../domain/bot-rules.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { LlmProvider } from '../../domain/types.ts';
import { prepared, type Queryable } from './db.ts';
import { BOT_COLUMNS, rowToBot, type BotRow } from './pg-bot-repository.ts';
import { PgRateLimiter, windowsAt } from './pg-rate-limiter.ts';

/**
 * The chat targets of a batch of requests and their admissions, in one statement: only
 * requests whose target exists (an active bot whose owner chose a provider and model) reach
 * `rate_limit_admit`, which takes them in arrival order within each bucket. The limits are
 * each bot's overrides over the defaults, read from the same row.
 * Arrays, one element per request: $1 bot ids, $2 buckets, $3 minute window starts,
 * $4 day window starts, $5/$6 default limits.
 */
const ADMIT_BATCH = prepared(
  'chat-admission-batch',
  `
  WITH request AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::int[])
      WITH ORDINALITY AS r(bot_id, bucket, short_start, long_start, default_per_minute, default_per_day, ord)
  ),
  target AS (
    SELECT r.ord, r.bucket, r.short_start, r.long_start,
           COALESCE(b.rate_limit_per_minute, r.default_per_minute) AS per_minute,
           COALESCE(b.rate_limit_per_day, r.default_per_day) AS per_day,
           ${BOT_COLUMNS}, u.llm_provider, u.llm_model
    FROM request r
    JOIN bots b ON b.id = r.bot_id
    JOIN users u ON u.id = b.user_id
    WHERE b.is_active AND u.llm_provider IS NOT NULL AND u.llm_model IS NOT NULL
  ),
  decision AS (
    SELECT array_agg(ord ORDER BY ord) AS ords,
           rate_limit_admit(array_agg(bucket ORDER BY ord), array_agg(short_start ORDER BY ord),
                            array_agg(long_start ORDER BY ord), array_agg(per_minute ORDER BY ord),
                            array_agg(per_day ORDER BY ord)) AS admitted
    FROM target
  )
  SELECT target.*, decision.admitted[array_position(decision.ords, target.ord)] AS admitted
  FROM target CROSS JOIN decision`,
);

type AdmissionRow = BotRow & { ord: string; llm_provider: LlmProvider; llm_model: string; admitted: boolean };
type Admission = { target: null } | { target: ChatTarget; decision: RateLimitDecision };

interface Waiting {
  botId: string;
  bucket: string;
  defaults: RateLimits;
  now: Date;
  resolve: (admission: Admission) => void;
  reject: (error: unknown) => void;
}

export interface ChatAdmissionBatching {
  /** Batches on the wire at once; requests arriving meanwhile wait for the next. */
  maxInFlight: number;
  /** Requests in one batch at most. */
  maxBatch: number;
}

const DEFAULT_BATCHING: ChatAdmissionBatching = { maxInFlight: 2, maxBatch: 64 };

/**
 * Chat admissions, grouped: the requests that arrive while earlier batches are on the wire
 * go together in the next statement. At low load each request goes alone at once (at the
 * end of the event-loop turn it arrived in); under load one round trip, one socket write
 * and one PostgreSQL statement serve many. Each request's outcome is the one it would get
 * alone: a batch applies the admission rule to its requests one after the other.
 */
export class PgChatAdmission implements ChatAdmission {
  private readonly waiting: Waiting[] = [];
  private inFlight = 0;
  private flushScheduled = false;

  constructor(
    private readonly q: Queryable,
    private readonly batching: ChatAdmissionBatching = DEFAULT_BATCHING,
  ) {}

  admit(botId: string, bucket: string, defaults: RateLimits, now: Date): Promise<Admission> {
    if (!isUuid(botId)) return Promise.resolve({ target: null });
    return new Promise((resolve, reject) => {
      this.waiting.push({ botId, bucket, defaults, now, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => {
          this.flushScheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    while (this.inFlight < this.batching.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.batching.maxBatch);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.flush();
      });
    }
  }

  private async run(batch: Waiting[]): Promise<void> {
    let rows: AdmissionRow[];
    try {
      rows = await this.query(batch);
    } catch (error) {
      for (const request of batch) request.reject(error);
      return;
    }
    const byOrdinal = new Map(rows.map((row) => [Number(row.ord), row]));
    await Promise.all(
      batch.map(async (request, index) => {
        try {
          request.resolve(await this.outcome(request, byOrdinal.get(index + 1)));
        } catch (error) {
          request.reject(error);
        }
      }),
    );
  }

  private query(batch: Waiting[]): Promise<AdmissionRow[]> {
    const windows = batch.map((request) => windowsAt(request.now));
    return this.q
      .query<AdmissionRow>(ADMIT_BATCH, [
        batch.map((request) => request.botId),
        batch.map((request) => request.bucket),
        windows.map((window) => window.shortStart),
        windows.map((window) => window.longStart),
        batch.map((request) => request.defaults.perMinute),
        batch.map((request) => request.defaults.perDay),
      ])
      .then((result) => result.rows);
  }

  private async outcome(request: Waiting, row: AdmissionRow | undefined): Promise<Admission> {
    if (!row) return { target: null };
    const bot = rowToBot(row);
    const target = { bot, provider: row.llm_provider, model: row.llm_model };
    if (row.admitted) return { target, decision: { allowed: true } };
    // Refused (the rare path): the limiter reads the bucket to say which tier and until when.
    const limits = effectiveRateLimits(bot, request.defaults);
    return { target, decision: await new PgRateLimiter(this.q).consume(request.bucket, limits, request.now) };
  }
}
