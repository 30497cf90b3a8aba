/**
 * This tab's sessionStorage, or, where the browser refuses it (a frame on another site with
 * third-party storage blocked, private modes, a full quota), a map that lasts as long as the page:
 * the chat works either way, and `kept` says whether a reload will find anything again.
 */
export interface TabStorage {
  get(key: string): string | null;
  /** Stores `value`, or forgets the key when it is null or empty. */
  set(key: string, value: string | null): void;
  /** False once the browser refused the storage: a reload starts over. */
  readonly kept: boolean;
}

export const tabStorage = (): TabStorage => {
  const memory = new Map<string, string>();
  let kept = true;
  /** The browser's storage, until it first refuses (reading `sessionStorage` itself may throw). */
  const attempt = <T>(use: (storage: Storage) => T): T | undefined => {
    if (!kept) return undefined;
    try {
      return use(window.sessionStorage);
    } catch {
      kept = false;
      return undefined;
    }
  };
  return {
    get: (key) => attempt((storage) => storage.getItem(key)) ?? memory.get(key) ?? null,
    set(key, value) {
      if (value) memory.set(key, value);
      else memory.delete(key);
      attempt((storage) => (value ? storage.setItem(key, value) : storage.removeItem(key)));
    },
    get kept() {
      attempt((storage) => storage.length);
      return kept;
    },
  };
};
