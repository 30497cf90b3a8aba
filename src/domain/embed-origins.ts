/**
 * The sites an owner allows to embed the managed widget's frame, as origins: a scheme, a host
 * and a port, nothing else. https for any host; plain http only for localhost (a developer's own
 * machine). The embed page's CSP `frame-ancestors` lists them; none listed allows any site.
 */
export const MAX_EMBED_ORIGINS = 20;

const ORIGIN_SHAPE = /^[a-z]+:\/\/[^/?#@\\\s]+$/i;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The origin `value` names, normalised (lower case, no default port), or why it is not one. */
export const parseEmbedOrigin = (value: string): { ok: true; origin: string } | { ok: false; reason: string } => {
  const text = value.endsWith('/') ? value.slice(0, -1) : value;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'is not an origin like https://www.example.com' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname))) {
    return { ok: false, reason: 'must start with https:// (plain http only for localhost)' };
  }
  // Nothing beyond scheme, host and port: no path, query, fragment, user or wildcard.
  if (!ORIGIN_SHAPE.test(text) || url.username || url.password || text.includes('*')) {
    return { ok: false, reason: 'must be only a scheme, a host and a port, like https://www.example.com' };
  }
  return { ok: true, origin: url.origin };
};
