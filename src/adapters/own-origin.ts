import type { Request } from 'express';

/**
 * The service's public origin: PUBLIC_URL, else the request's own scheme and host.
 * Shared by the HTTP adapter (Origin checks, sign-in redirects) and the pages (share links).
 */
export const ownOrigin = (req: Request, publicUrl: string | undefined): string =>
  publicUrl ? new URL(publicUrl).origin : `${req.protocol}://${req.get('host') ?? 'localhost'}`;
