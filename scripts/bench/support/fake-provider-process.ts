import { fakeReply, startFakeLlmProvider } from '@careerbot/testkit';

// A fake LLM provider in its own process, so it does not share the benchmark's event loop.
// Prints its base URLs as one JSON line. Instant by default; with FAKE_FIRST_CHUNK_MS it writes a
// streamed reply's first chunk after that many milliseconds and the others FAKE_CHUNK_MS apart.
const firstMs = Number(process.env.FAKE_FIRST_CHUNK_MS ?? 0);
const chunkMs = Number(process.env.FAKE_CHUNK_MS ?? 0);
const chunks = ['Ada wrote the first program for the Analytical Engine. ', 'She ', 'also ', 'described ', 'loops ', 'and ', 'subroutines.'];
const provider = await startFakeLlmProvider({
  recordRequests: false,
  ...(firstMs > 0 ? { defaultReply: fakeReply.delayed(firstMs, fakeReply.stream(chunks, { chunkDelayMs: chunkMs })) } : {}),
});
console.log(JSON.stringify(provider.baseUrls));
