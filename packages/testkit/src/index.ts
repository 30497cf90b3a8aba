// The fake LLM provider and the HTTP client; the browser launcher is '@careerbot/testkit/browser',
// so that what needs no browser does not load playwright-core.
export * from './fake-llm-provider.ts';
export * from './http-client.ts';
