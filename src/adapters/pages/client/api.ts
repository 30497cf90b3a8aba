/** The JSON API, called from the pages with the session cookie (same origin). */

/** What an error answer of the API may carry (see the contract's error bodies). */
export interface ErrorBody {
  error?: string;
  reason?: string;
  scope?: string;
  resetAt?: number;
  details?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] };
}

export interface ApiAnswer<T = ErrorBody> {
  status: number;
  ok: boolean;
  body: T;
  headers: Headers;
}

export const NETWORK_ERROR = 'The service could not be reached. Check your connection and try again.';

export const api = async <T = ErrorBody>(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> => {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.status === 401 && path.startsWith('/api/') && !path.startsWith('/api/auth') && !path.startsWith('/api/chat')) {
    // The session ended (signed out elsewhere, or expired): sign in again, then come back.
    window.location.assign(`/login?callbackUrl=${encodeURIComponent(location.pathname + location.search)}`);
  }
  return { status: response.status, ok: response.ok, body: body as T, headers: response.headers };
};

/** The validation errors of an owner API answer, per field, as sentences. */
export const fieldErrors = (answer: ApiAnswer<unknown>): Record<string, string[]> => (answer.body as ErrorBody | null)?.details?.fieldErrors ?? {};

export const formErrors = (answer: ApiAnswer<unknown>): string[] => (answer.body as ErrorBody | null)?.details?.formErrors ?? [];

export const csrfToken = async (): Promise<string> => (await api<{ csrfToken: string }>('/api/auth/csrf')).body.csrfToken;

export const signOut = async () => {
  const token = await csrfToken();
  await api('/api/auth/signout', { method: 'POST', body: { csrfToken: token } });
  window.location.assign('/login');
};

/** "in 3 minutes", "in 40 seconds": how long to wait, from a Retry-After in seconds. */
export const waitWords = (seconds: number): string => {
  if (seconds >= 90) return `${Math.ceil(seconds / 60)} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
};

export const formatDate = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** POSTs a file as the body itself (the CV import, the photo); the JSON answer, or null. */
export const uploadFile = async <T>(path: string, file: File): Promise<{ status: number; ok: boolean; body: (T & ErrorBody) | null }> => {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'content-type': file.type || 'application/octet-stream' },
    body: file,
  });
  const body = (await response.json().catch(() => null)) as (T & ErrorBody) | null;
  if (response.status === 401) window.location.assign(`/login?callbackUrl=${encodeURIComponent(location.pathname)}`);
  return { status: response.status, ok: response.ok, body };
};
