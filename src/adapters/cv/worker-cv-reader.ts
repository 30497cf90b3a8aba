import { Worker } from 'node:worker_threads';
import type { CvReader, CvUnreadable, ReadCv } from '../../application/ports.ts';

export interface WorkerCvReaderOptions {
  /** The worker is ended after this long, and the upload refused as taking too long. */
  timeoutMs: number;
  /** The worker's heap, in MB: a document that needs more is refused, the service keeps running. */
  maxHeapMb: number;
  /** Parses at once; more wait their turn (each worker costs a thread and its heap). */
  concurrency: number;
}

type Answer = { ok: true; value: ReadCv } | { ok: false; error: CvUnreadable };

const HERE = import.meta.url;
/** From the sources (tsx, vitest) the worker's TypeScript is loaded through tsx; the build runs its JavaScript. */
const workerSource = () => {
  if (!HERE.endsWith('.ts')) return { code: new URL('./cv-parse-worker.js', HERE), eval: false };
  const entry = new URL('./cv-parse-worker.ts', HERE).href;
  return { code: `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, eval: true };
};

/** Each document is read in a fresh worker thread with a heap limit and a time limit: the main thread never parses. */
export class WorkerCvReader implements CvReader {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: WorkerCvReaderOptions) {}

  async read(bytes: Uint8Array, options: { fileName: string | null; maxPages: number }): Promise<Answer> {
    if (this.running >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await this.inWorker(bytes, options);
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  private inWorker(bytes: Uint8Array, options: { fileName: string | null; maxPages: number }): Promise<Answer> {
    const source = workerSource();
    const worker = new Worker(source.code, {
      eval: source.eval,
      workerData: { bytes, fileName: options.fileName, maxPages: options.maxPages },
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    return new Promise<Answer>((resolve) => {
      const finish = (answer: Answer) => {
        clearTimeout(timer);
        resolve(answer);
        void worker.terminate();
      };
      const timer = setTimeout(() => finish({ ok: false, error: { type: 'took_too_long' } }), this.options.timeoutMs);
      worker.once('message', (answer: Answer) => finish(answer));
      // Out of memory, or a crash inside a parser: the document cannot be read.
      worker.once('error', () => finish({ ok: false, error: { type: 'unreadable_file' } }));
      worker.once('exit', () => finish({ ok: false, error: { type: 'unreadable_file' } }));
    });
  }
}
