import type { PreparedStatement, Queryable } from '../../src/adapters/persistence/db.ts';
import { ServiceUnavailableError } from '../../src/adapters/persistence/service-unavailable.ts';

/** A Queryable that counts the statements it runs, by name (or text). */
export const counting = (inner: Queryable) => {
  const counts = new Map<string, number>();
  const q: Queryable = {
    query: (statement: string | PreparedStatement, params?: unknown[]) => {
      const key = typeof statement === 'string' ? statement : statement.name;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return inner.query(statement, params);
    },
  } as Queryable;
  return { q, counts };
};

/** A Queryable whose first statement fails as a lost connection does through Db (unavailable); the rest reach `inner`. */
export const failingFirst = (inner: Queryable): Queryable => {
  let failNext = true;
  return {
    query: (statement: string | PreparedStatement, params?: unknown[]) => {
      if (failNext) {
        failNext = false;
        return Promise.reject(new ServiceUnavailableError(new Error('connection lost')));
      }
      return inner.query(statement, params);
    },
  } as Queryable;
};
