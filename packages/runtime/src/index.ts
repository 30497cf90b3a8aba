/**
 * The self-hosted Career Bot runtime: `createRuntime(options)` is a standard fetch handler (a
 * Request in, a Response out) for a Node server, a serverless or an edge function;
 * `parseRuntimeConfig` reads its configuration from an environment. The Node server around it
 * is `@careerbot/runtime/node`; the `careerbot-runtime` command runs that.
 */
export { createRuntime, type RequestContext, type Runtime, type RuntimeOptions } from './runtime.ts';
export { parseRuntimeConfig, type RuntimeConfig, type RuntimeConfigResult } from './config.ts';
export type { RuntimeLogger, LogLevel } from './logger.ts';
export type { BodyBytes, RuntimeReply, RuntimeRequest, TextSink } from './exchange.ts';
