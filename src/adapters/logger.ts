import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Secrets never reach a log line: request logs carry no headers at all (see the
 * request-log serializers in build-app.ts), and these paths are censored wherever an
 * object with them is logged by mistake.
 */
const REDACTED_PATHS = [
  'password',
  'passwordHash',
  'password_hash',
  'apiKey',
  'embeddingApiKey',
  'token',
  'authorization',
  'cookie',
  '*.password',
  '*.passwordHash',
  '*.password_hash',
  '*.apiKey',
  '*.embeddingApiKey',
  '*.token',
  '*.authorization',
  '*.cookie',
  'req.headers["x-llm-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * Without a destination, logs go to stdout asynchronously: lines written while a write is
 * in flight are batched into the next one, instead of one system call per line on the
 * request path. pino flushes what is left when the process exits.
 */
export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );

/**
 * What is worth logging of a driver error: its message and code. pg errors carry the
 * whole client (connection parameters included) as enumerable properties.
 */
export const errorSummary = (error: unknown) =>
  error instanceof Error ? { message: error.message, code: (error as { code?: unknown }).code } : { message: String(error) };
