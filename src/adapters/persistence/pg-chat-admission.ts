import type { ChatAdmission, ChatTarget, RateLimitDecision, RateLimits } from '../../application/ports.ts';
import { effectiveRateLimits } from '../../domain/bot-rules.ts';
import { isUuid } from '../../domain/pagination.ts';
import { prepared, type Queryable } from './db.ts';
import { BOT_COLUMNS, CHAT_TARGET_JOIN, IS_CHAT_TARGET, rowToChatTarget, type ChatTargetRow } from './pg-bot-repository.ts';
import { admissionDecision, windowsAt, type AdmissionRow, type Windows } from './pg-rate-limiter.ts';
import { inRequestOrder, StatementBatcher, type Batching } from './statement-batcher.ts';

/**
 * The chat targets of a batch of requests and their admissions, in one statement: only
 * requests whose target exists (an active bot whose owner chose a provider and model) reach
 * `rate_limit_admit`, which takes them in arrival order within each bucket and reports, for
 * each refusal, the bucket that refused it. The limits are each bot's overrides over the
 * defaults, read from the same row.
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
    ${CHAT_TARGET_JOIN}
    WHERE ${IS_CHAT_TARGET}
  ),
  inputs AS (
    SELECT array_agg(ord ORDER BY ord) AS ords, array_agg(bucket ORDER BY ord) AS buckets,
           array_agg(short_start ORDER BY ord) AS short_starts, array_agg(long_start ORDER BY ord) AS long_starts,
           array_agg(per_minute ORDER BY ord) AS per_minutes, array_agg(per_day ORDER BY ord) AS per_days
    FROM target
  ),
  decision AS (
    SELECT inputs.ords[d.position] AS ord, d.admitted, d.state_short_start, d.state_short_count,
           d.state_long_start, d.state_long_count
    FROM inputs, LATERAL rate_limit_admit(inputs.buckets, inputs.short_starts, inputs.long_starts, inputs.per_minutes,
                                          inputs.per_days)
      WITH ORDINALITY AS d(admitted, state_short_start, state_short_count, state_long_start, state_long_count, position)
  )
  SELECT target.*, decision.admitted, decision.state_short_start, decision.state_short_count,
         decision.state_long_start, decision.state_long_count
  FROM target JOIN decision ON decision.ord = target.ord`,
);

type TargetRow = ChatTargetRow & AdmissionRow & { ord: string };
type Admission = { target: null } | { target: ChatTarget; decision: RateLimitDecision };

interface AdmissionRequest {
  botId: string;
  bucket: string;
  defaults: RateLimits;
  /** The rate-limit windows the request falls in, from its clock reading. */
  windows: Windows;
}

/**
 * Chat admissions, grouped by a StatementBatcher: the requests that arrive while earlier
 * batches are on the wire go together in the next statement. Each request's outcome is the
 * one it would get alone: a batch applies the admission rule to its requests one after the other.
 */
export class PgChatAdmission implements ChatAdmission {
  private readonly batcher: StatementBatcher<AdmissionRequest, Admission>;

  constructor(
    private readonly q: Queryable,
    batching: Partial<Batching> = {},
  ) {
    this.batcher = new StatementBatcher('chat admission', (batch) => this.run(batch), batching);
  }

  admit(botId: string, bucket: string, defaults: RateLimits, now: Date): Promise<Admission> {
    if (!isUuid(botId)) return Promise.resolve({ target: null });
    return this.batcher.submit({ botId, bucket, defaults, windows: windowsAt(now) });
  }

  private async run(batch: AdmissionRequest[]): Promise<Admission[]> {
    const { rows } = await this.q.query<TargetRow>(ADMIT_BATCH, [
      batch.map((request) => request.botId),
      batch.map((request) => request.bucket),
      batch.map((request) => request.windows.shortStart),
      batch.map((request) => request.windows.longStart),
      batch.map((request) => request.defaults.perMinute),
      batch.map((request) => request.defaults.perDay),
    ]);
    const answered = inRequestOrder(batch, rows);
    return batch.map((request, index) => outcome(request, answered[index]));
  }
}

/** A request's admission from its row: none means no target (unknown, inactive or ownerless bot). */
const outcome = (request: AdmissionRequest, row: TargetRow | undefined): Admission => {
  if (!row) return { target: null };
  const target = rowToChatTarget(row);
  return { target, decision: admissionDecision(row, effectiveRateLimits(target.bot, request.defaults), request.windows) };
};
