/**
 * `npm run rotate:master-key` (and `node dist/rotate-master-key.js`): re-wraps every stored
 * data key of the owners' provider keys with the current master key, then exits. With no
 * downtime: first give every instance the new KEY_ENCRYPTION_KEY and the old one in
 * KEY_ENCRYPTION_KEY_PREVIOUS (they then open both and seal with the new one), run this
 * with the same two variables and DATABASE_URL, and only afterwards drop the old key.
 * Safe to run twice or from two places: a row re-wraps only if nothing changed it meanwhile.
 */
import { parseConfig } from './adapters/config.ts';
import { EnvelopeVault, parseMasterKey } from './adapters/crypto/envelope-vault.ts';
import { Db } from './adapters/persistence/db.ts';
import { rewrapOwnerKeys } from './adapters/persistence/pg-owner-key-repository.ts';

const fail = (message: string): never => {
  console.error(`rotate-master-key: ${message}`);
  process.exit(1);
};

const parsed = parseConfig(process.env);
if (!parsed.ok) fail(parsed.message);
const config = parsed.ok ? parsed.config : fail('unreachable');
if (!config.DATABASE_URL) fail('set DATABASE_URL to the PostgreSQL whose keys to re-wrap');
if (!config.KEY_ENCRYPTION_KEY) fail('set KEY_ENCRYPTION_KEY to the new master key, and KEY_ENCRYPTION_KEY_PREVIOUS to the old one(s)');

const vault = new EnvelopeVault([config.KEY_ENCRYPTION_KEY!, ...config.KEY_ENCRYPTION_KEY_PREVIOUS].map((key) => parseMasterKey(key)!));
const db = new Db({ connectionString: config.DATABASE_URL!, max: 2 });
try {
  const count = await rewrapOwnerKeys(db, vault.currentMasterKeyId, (owner, sealed) => vault.rewrap(owner, sealed)!);
  console.log(`rotate-master-key: re-wrapped ${count} data key(s) with master key ${vault.currentMasterKeyId}`);
} catch (error) {
  fail((error as Error).message || String(error));
} finally {
  await db.close();
}
