import { readFileSync } from 'node:fs';
import http from 'node:http';

/** What one streamed-request phase saw: times to the first word and to the end, in ms, and replies per second. */
export interface StreamRun {
  firstWordMs: number[];
  /** With `thenMarker`: the times to the first body bytes that contain it too. */
  thenMs: number[];
  wholeMs: number[];
  /** Per tagged request (a target with an `id`), when it was sent and when its first word was read, on the shared monotonic clock. */
  sentAt: Map<string, number>;
  firstWordAt: Map<string, number>;
  repliesPerSecond: number;
  failures: number;
}

/**
 * `connections` loops, each sending POSTs one after another for `durationS` seconds, timing the
 * first body bytes that contain `firstMarker` and the end of each answer.
 */
export const streamLoad = async (options: {
  connections: number;
  durationS: number;
  target: () => { url: string; headers: Record<string, string>; body: string; id?: string };
  firstMarker: string;
  thenMarker?: string;
  /**
   * Spread the connections' first requests evenly over this many ms (0: all at once). With
   * replies of one length, connections that start together stay together: every reply's end
   * sends the next 32 questions in the same millisecond. Visitors arrive apart.
   */
  spreadMs?: number;
}): Promise<StreamRun> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const run: StreamRun = { firstWordMs: [], thenMs: [], wholeMs: [], sentAt: new Map(), firstWordAt: new Map(), repliesPerSecond: 0, failures: 0 };
  const deadline = performance.now() + options.durationS * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const { url, headers, body, id } = options.target();
      const started = performance.now();
      if (id) run.sentAt.set(id, monotonicMs());
      let first = 0;
      let then = 0;
      const thenMarker = options.thenMarker ?? options.firstMarker;
      let seen = '';
      const request = http.request(url, { method: 'POST', agent, headers }, (response) => {
        response.on('data', (bytes: Buffer) => {
          if (then) return;
          // The text so far, so that a marker split across two reads is still found when it is whole.
          seen += bytes.toString();
          if (!first && seen.includes(options.firstMarker)) {
            first = performance.now() - started;
            if (id) run.firstWordAt.set(id, monotonicMs());
          }
          if (first && seen.includes(thenMarker)) then = performance.now() - started;
        });
        response.on('end', () => {
          if (response.statusCode === 200 && then) {
            run.firstWordMs.push(first);
            run.thenMs.push(then);
            run.wholeMs.push(performance.now() - started);
          } else run.failures += 1;
          resolve();
        });
      });
      request.on('error', () => {
        run.failures += 1;
        resolve();
      });
      request.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async (_, index) => {
      const offset = ((options.spreadMs ?? 0) * index) / options.connections;
      if (offset > 0) await new Promise((resolve) => setTimeout(resolve, offset));
      while (performance.now() < deadline) await once();
    }),
  );
  run.repliesPerSecond = run.wholeMs.length / ((performance.now() - started) / 1000);
  agent.destroy();
  return run;
};

/** Milliseconds on CLOCK_MONOTONIC, which every process on the machine reads alike. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/**
 * CPU milliseconds (user and system) that process `pid` has used, from /proc (Linux); NaN where
 * there is no /proc. Read before and after a phase, it gives the service's cost per reply, which
 * a shared machine's load disturbs far less than latencies.
 */
export const cpuMsOf = (pid: number | undefined): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return Number.NaN;
  }
};
const CLOCK_TICKS_PER_S = 100; // USER_HZ, 100 on every Linux architecture Node runs on
