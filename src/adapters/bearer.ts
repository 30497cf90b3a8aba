/**
 * The credentials of an `Authorization: Bearer <credentials>` header (RFC 6750), or null
 * when the header is absent or has another shape. The scheme is case-insensitive.
 * What the credentials must look like is the caller's rule (for bot tokens, the domain's).
 */
export const bearerCredentials = (header: string | undefined): string | null => {
  const parts = (header ?? '').trim().split(/[ \t]+/);
  if (parts.length !== 2) return null;
  const [scheme, credentials] = parts as [string, string];
  return scheme.toLowerCase() === 'bearer' ? credentials : null;
};
