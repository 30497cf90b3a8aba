import { createServer } from 'node:http';
import { fakeReply, startFakeLlmProvider, type RecordedRequest } from '@careerbot/testkit';
import { monotonicMs } from './sse-load.ts';

// A fake LLM provider in its own process, so it does not share the benchmark's event loop.
// Prints its base URLs as one JSON line. Instant by default. With FAKE_FIRST_CHUNK_MS it writes a
// streamed reply's first chunk after that many milliseconds and the others FAKE_CHUNK_MS apart:
// a short reply in seven chunks, or, to a model whose name ends in `-paced`, a reply of
// FAKE_WORDS words (150 by default), one word a chunk, as providers write them.
const firstMs = Number(process.env.FAKE_FIRST_CHUNK_MS ?? 0);
const chunkDelayMs = Number(process.env.FAKE_CHUNK_MS ?? 0);
const words = Number(process.env.FAKE_WORDS ?? 150);
const SHORT = ['Ada wrote the first program for the Analytical Engine. ', 'She ', 'also ', 'described ', 'loops ', 'and ', 'subroutines.'];
const SENTENCE = 'Ada led the move of the payments platform to event sourcing, and she still reviews its schema changes every week. ';
const SENTENCE_WORDS = SENTENCE.split(/(?<= )/);
const LONG = Array.from({ length: words }, (_, i) => SENTENCE_WORDS[i % SENTENCE_WORDS.length] as string);
const streamed = (chunks: string[]) => fakeReply.delayed(firstMs, fakeReply.stream(chunks, { chunkDelayMs }));
const paced = streamed(LONG);
// When each tagged request arrived and when its first sentence left (the first chunk that ends one),
// on the monotonic clock every process shares: the benchmark pairs them with the moments its visitor
// sent the question and read the first word, so the service is charged with the way there and back,
// not with the fake's own delays in between.
const arrived = new Map<string, number>();
const sentenceSent = new Map<string, number>();
const tags = new WeakMap<RecordedRequest, string | null>();
const tagOf = (request: RecordedRequest): string | null => {
  if (!tags.has(request)) tags.set(request, /bench-\d+/.exec(JSON.stringify(request.body))?.[0] ?? null);
  return tags.get(request)!;
};
const timeSentenceEnd = (request: RecordedRequest, chunk: string) => {
  if (!/[.!?]\s*$/.test(chunk)) return;
  const tag = tagOf(request);
  if (tag && !sentenceSent.has(tag)) sentenceSent.set(tag, monotonicMs());
};
const timeArrival = (request: RecordedRequest) => {
  const tag = tagOf(request);
  if (tag) arrived.set(tag, monotonicMs());
};
const timings = createServer((_req, res) => {
  res.end(JSON.stringify({ arrived: Object.fromEntries(arrived), sentenceSent: Object.fromEntries(sentenceSent) }));
  arrived.clear();
  sentenceSent.clear();
});
await new Promise<void>((resolve) => timings.listen(0, '127.0.0.1', resolve));
const provider = await startFakeLlmProvider({
  recordRequests: false,
  onRequest: timeArrival,
  onChunkWritten: timeSentenceEnd,
  ...(firstMs > 0 ? { defaultReply: streamed(SHORT), replyFor: (request: RecordedRequest) => (request.model?.endsWith('-paced') ? paced : undefined) } : {}),
});
const { port } = timings.address() as { port: number };
console.log(JSON.stringify({ ...provider.baseUrls, timings: `http://127.0.0.1:${port}` }));
