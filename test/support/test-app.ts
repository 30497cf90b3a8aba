import type { AddressInfo } from 'node:net';
import express from 'express';
import { Writable } from 'node:stream';
import type { Clock, PasswordHasher } from '../../src/application/ports.ts';
import { parseConfig } from '../../src/adapters/config.ts';
import { createLogger } from '../../src/adapters/logger.ts';
import { createService } from '../../src/composition.ts';
import { responseCheck } from './response-check.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** Every log line the service wrote, kept to search for leaked secrets. */
class LogCapture {
  readonly lines: string[] = [];
  readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });

  text() {
    return this.lines.join('\n');
  }
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  hasher?: PasswordHasher;
  /** Reuse a database (e.g. two app instances on one database). */
  database?: TestDatabase;
  /** Listen on this port (e.g. a platform started again where it was); a free one by default. */
  port?: number;
}

export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';
/** The master key of the owners' provider keys in tests (32 bytes, hex). */
export const TEST_MASTER_KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';

/** The whole service in-process on a free port, over its own fresh database. */
export const startTestApp = async (options: TestAppOptions = {}) => {
  const database = options.database ?? (await createTestDatabase());
  // Test files register many accounts from 127.0.0.1; the register throttle has tests of its own.
  const parsed = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', REGISTRATIONS_PER_ADDRESS: '1000000', KEY_ENCRYPTION_KEY: TEST_MASTER_KEY, ...options.env });
  if (!parsed.ok) throw new Error(parsed.message);
  const logs = new LogCapture();
  const logger = createLogger(parsed.config.LOG_LEVEL, logs.stream);
  const service = await createService({
    config: parsed.config,
    db: database.db,
    logger,
    sessionSecret: TEST_SESSION_SECRET,
    clock: options.clock,
    hasher: options.hasher,
  });
  // Every answer is checked against the OpenAPI document; a mismatch fails the file at close.
  const check = responseCheck();
  const outer = express();
  outer.disable('x-powered-by');
  outer.set('etag', false);
  outer.use(check.middleware, service.app);
  const server = outer.listen(options.port ?? 0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    express: service.app,
    logs,
    database,
    db: database.db,
    /** How many JSON answers were checked against the OpenAPI document so far. */
    responsesChecked: check.checked,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
      if (!options.database) await database.drop();
      check.assertClean();
    },
  };
};

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
