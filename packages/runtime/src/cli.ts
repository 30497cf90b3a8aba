#!/usr/bin/env node
import { httpFetch } from '@careerbot/llm/http-fetch';
import { httpStreamFetch } from '@careerbot/llm/http-stream-fetch';
import { parseRuntimeConfig } from './config.ts';
import { jsonLineLogger } from './logger.ts';
import { startRuntimeServer } from './node-server.ts';
import { createRuntime } from './runtime.ts';

const parsed = parseRuntimeConfig(process.env);
if (!parsed.ok) {
  console.error(parsed.message);
  process.exit(1);
}
const { config } = parsed;
const log = jsonLineLogger(config.LOG_LEVEL, [config.LLM_API_KEY, config.CAREERBOT_TOKEN, config.EMBEDDING_API_KEY ?? '']);
// On Node, the platform's keep-alive fetches for the platform and the providers, as the platform itself does.
const runtime = createRuntime({ config, log, fetch: httpFetch, providerFetch: httpFetch, providerStreamFetch: httpStreamFetch });
const server = await startRuntimeServer(runtime, { port: config.PORT, host: config.HOST });
log('info', 'careerbot-runtime listening', { url: server.url, provider: config.LLM_PROVIDER });
void runtime.warm();

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log('info', 'draining', { signal });
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
