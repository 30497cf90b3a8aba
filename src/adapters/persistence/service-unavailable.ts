/** The database cannot be reached right now; the request may be retried (answered 503). */
export class ServiceUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('service unavailable', { cause });
    this.name = 'ServiceUnavailableError';
  }
}

/** What the HTTP adapter is given, so it answers 503 without importing persistence. */
export const isServiceUnavailable = (error: unknown): error is ServiceUnavailableError => error instanceof ServiceUnavailableError;
