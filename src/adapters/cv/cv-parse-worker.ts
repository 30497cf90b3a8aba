// The parsing worker's entry: one document per worker, answered once.
import { parentPort, workerData } from 'node:worker_threads';
import { readDocument } from './read-document.ts';

const { bytes, fileName, maxPages } = workerData as { bytes: Uint8Array; fileName: string | null; maxPages: number };
readDocument(bytes, fileName, maxPages).then(
  (result) => parentPort!.postMessage(result),
  () => parentPort!.postMessage({ ok: false, error: { type: 'unreadable_file' } }),
);
