// `npm start`: read the environment, then run one server over the composed service, or,
// with WEB_CONCURRENCY > 1, a cluster primary that forks such servers.
import cluster from 'node:cluster';
import { parseConfig } from './adapters/config.ts';
import { createLogger } from './adapters/logger.ts';
import { runPrimary } from './cluster-primary.ts';
import { createService } from './composition.ts';
import { runServer } from './server-life.ts';

const parsed = parseConfig(process.env);
if (!parsed.ok) {
  console.error(parsed.message);
  process.exit(1);
}
const { config } = parsed;
const logger = createLogger(config.LOG_LEVEL);
if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) void runPrimary(config, logger);
else void runServer(config, logger, (db, sessionSecret) => createService({ config, db, logger, sessionSecret }));
