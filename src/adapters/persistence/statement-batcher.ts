import { ServiceUnavailableError } from './service-unavailable.ts';

export interface Batching {
  /** Batches on the wire at once; requests arriving meanwhile wait for the next. */
  maxInFlight: number;
  /** Requests in one batch at most. */
  maxBatch: number;
  /**
   * How long a request may wait for a batch to take it: past that the database is not
   * answering, and the request fails as unavailable (503), like a pool checkout that times out.
   */
  queueTimeoutMs: number;
}

const DEFAULT_BATCHING: Batching = { maxInFlight: 2, maxBatch: 64, queueTimeoutMs: 5_000 };

/**
 * A batch's rows put back in request order, for statements that unnest their arrays WITH
 * ORDINALITY as `ord` (from 1) and answer only some requests: undefined where a request has no row.
 */
export function inRequestOrder<Row extends { ord: string }>(batch: readonly unknown[], rows: Row[]): (Row | undefined)[] {
  const byOrdinal = new Map(rows.map((row) => [Number(row.ord), row]));
  return batch.map((_, index) => byOrdinal.get(index + 1));
}

interface Waiting<Request, Outcome> {
  request: Request;
  resolve: (outcome: Outcome) => void;
  reject: (error: unknown) => void;
  /** Fails the request if no batch has taken it by then. */
  deadline: NodeJS.Timeout;
}

/**
 * Requests that arrive while earlier batches are on the wire go together in the next
 * statement. At low load each request goes alone at once (at the end of the event-loop turn it
 * arrived in); under load one round trip, one socket write and one PostgreSQL statement serve
 * many. `run` answers a batch with one outcome per request, in order, and must give each the
 * outcome it would get alone, in one statement, so that a failure changes nothing.
 */
export class StatementBatcher<Request, Outcome> {
  private readonly waiting: Waiting<Request, Outcome>[] = [];
  private inFlight = 0;
  private flushScheduled = false;
  private readonly batching: Batching;

  constructor(
    /** What the batches do, for the error of a request no batch took in time. */
    private readonly what: string,
    private readonly run: (batch: Request[]) => Promise<Outcome[]>,
    batching: Partial<Batching> = {},
  ) {
    this.batching = { ...DEFAULT_BATCHING, ...batching };
  }

  submit(request: Request): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const waiting: Waiting<Request, Outcome> = {
        request,
        resolve,
        reject,
        deadline: setTimeout(() => this.expire(waiting), this.batching.queueTimeoutMs),
      };
      this.waiting.push(waiting);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => {
          this.flushScheduled = false;
          this.flush();
        });
      }
    });
  }

  private expire(waiting: Waiting<Request, Outcome>): void {
    const index = this.waiting.indexOf(waiting);
    if (index < 0) return; // a batch took it meanwhile
    this.waiting.splice(index, 1);
    waiting.reject(new ServiceUnavailableError(new Error(`no ${this.what} batch could be sent in time`)));
  }

  private flush(): void {
    while (this.inFlight < this.batching.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.batching.maxBatch);
      for (const waiting of batch) clearTimeout(waiting.deadline);
      this.inFlight += 1;
      void this.answer(batch).finally(() => {
        this.inFlight -= 1;
        this.flush();
      });
    }
  }

  private async answer(batch: Waiting<Request, Outcome>[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.run(batch.map((waiting) => waiting.request));
    } catch (error) {
      // The database unavailable fails every request at once. Any other failure may come from one
      // request's data: the statement changed nothing, so each request goes again alone, and
      // only the one at fault fails.
      if (batch.length === 1 || error instanceof ServiceUnavailableError) {
        for (const waiting of batch) waiting.reject(error);
      } else {
        for (const waiting of batch) await this.answer([waiting]);
      }
      return;
    }
    for (const [index, waiting] of batch.entries()) waiting.resolve(outcomes[index] as Outcome);
  }
}
