/** One conversation per browser tab: a reload resends the same session id, and the platform coalesces. */

const uuid = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => (Number(c) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(c) / 4)))).toString(16));

/** The session id kept under `key` in this tab's sessionStorage, made on first use. */
export const tabSessionId = (key: string): string => {
  try {
    const sessionId = sessionStorage.getItem(key) ?? uuid();
    sessionStorage.setItem(key, sessionId);
    return sessionId;
  } catch {
    return uuid();
  }
};
