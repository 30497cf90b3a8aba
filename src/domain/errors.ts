/** A dependency (the database) cannot be reached right now; the request may be retried. */
export class ServiceUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('service unavailable', { cause });
    this.name = 'ServiceUnavailableError';
  }
}
