import { startFakeLlmProvider } from '@careerbot/testkit';

// An instant fake LLM provider in its own process, so it does not share the
// benchmark's event loop. Prints its base URLs as one JSON line.
const provider = await startFakeLlmProvider({ recordRequests: false });
console.log(JSON.stringify(provider.baseUrls));
