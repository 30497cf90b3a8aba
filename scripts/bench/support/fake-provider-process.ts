import { fakeReply, startFakeLlmProvider, type RecordedRequest } from '@careerbot/testkit';

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
const provider = await startFakeLlmProvider({
  recordRequests: false,
  ...(firstMs > 0 ? { defaultReply: streamed(SHORT), replyFor: (request: RecordedRequest) => (request.model?.endsWith('-paced') ? paced : undefined) } : {}),
});
console.log(JSON.stringify(provider.baseUrls));
