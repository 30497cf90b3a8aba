export type LogLevel = 'error' | 'warn' | 'info';

/** Where the runtime writes what happened: one line per event, never a key, a token or a visitor's text. */
export type RuntimeLogger = (level: LogLevel, message: string, fields?: Record<string, string | number | boolean>) => void;

const RANK: Record<LogLevel | 'silent', number> = { error: 0, warn: 1, info: 2, silent: -1 };

/**
 * JSON lines on the console (errors on its error stream), at `level` and above. Each line is also scrubbed of
 * `secrets` wherever they occur: the runtime never puts one in a message, and this makes sure.
 */
export const jsonLineLogger =
  (level: LogLevel | 'silent', secrets: string[]): RuntimeLogger =>
  (lineLevel, message, fields = {}) => {
    if (RANK[lineLevel] > RANK[level]) return;
    let line = JSON.stringify({ time: new Date().toISOString(), level: lineLevel, message, ...fields });
    for (const secret of secrets) if (secret) line = line.split(secret).join('[redacted]');
    (lineLevel === 'error' ? console.error : console.log)(line);
  };
