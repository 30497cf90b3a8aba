import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Secrets never reach a log line: request logs carry no headers at all (see the
 * request-log serializers in build-app.ts), and these paths are censored wherever an
 * object with them is logged by mistake.
 */
export const REDACTED_PATHS = [
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

export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
