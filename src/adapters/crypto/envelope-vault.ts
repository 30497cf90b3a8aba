import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SealedSecret, SecretVault } from '../../application/ports.ts';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A master key's public name: a fingerprint that identifies it and reveals nothing of it. */
export const masterKeyId = (key: Buffer) => createHash('sha256').update('careerbot master key id\0').update(key).digest('hex').slice(0, 16);

/** 32 bytes, written as 64 hex digits or as base64; anything else is null. */
export const parseMasterKey = (text: string): Buffer | null => {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    return bytes.length === KEY_BYTES ? bytes : null;
  }
  return null;
};

const encrypt = (key: Buffer, plaintext: Buffer, aad: string) => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, authTag: cipher.getAuthTag(), ciphertext };
};

const decrypt = (key: Buffer, parts: { iv: Uint8Array; authTag: Uint8Array; ciphertext: Uint8Array }, aad: string) => {
  const decipher = createDecipheriv(ALGORITHM, key, parts.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(parts.authTag);
  return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
};

const dataKeyAad = (owner: string, masterId: string) => `careerbot data key\0${owner}\0${masterId}`;
const secretAad = (owner: string) => `careerbot owner llm key\0${owner}`;

/**
 * Envelope encryption with Node's crypto: each sealed secret gets a fresh 256-bit data key,
 * and only that data key, wrapped by the current master key, is kept beside the ciphertext.
 * Older master keys still open what they wrapped, so instances can be given a new master
 * key first and `rewrap` run afterwards, with no downtime.
 */
export class EnvelopeVault implements SecretVault {
  private readonly current: { id: string; key: Buffer };
  private readonly byId: Map<string, Buffer>;

  /** `masterKeys[0]` wraps new data keys; the others are previous master keys, kept to open. */
  constructor(masterKeys: Buffer[]) {
    if (masterKeys.length === 0 || masterKeys.some((key) => key.length !== KEY_BYTES)) throw new Error('master keys must be 32 bytes');
    this.byId = new Map(masterKeys.map((key) => [masterKeyId(key), key]));
    this.current = { id: masterKeyId(masterKeys[0]!), key: masterKeys[0]! };
  }

  get currentMasterKeyId() {
    return this.current.id;
  }

  seal(owner: string, secret: string): SealedSecret {
    const dataKey = randomBytes(KEY_BYTES);
    try {
      const sealed = encrypt(dataKey, Buffer.from(secret, 'utf8'), secretAad(owner));
      return { ...sealed, wrappedDataKey: this.wrap(owner, dataKey), masterKeyId: this.current.id, masterKeyVersion: 1 };
    } finally {
      dataKey.fill(0);
    }
  }

  open(owner: string, sealed: SealedSecret): string {
    const dataKey = this.unwrap(owner, sealed);
    try {
      return decrypt(dataKey, sealed, secretAad(owner)).toString('utf8');
    } finally {
      dataKey.fill(0);
    }
  }

  /** The same data key wrapped by the current master key; null when it already is. */
  rewrap(owner: string, sealed: SealedSecret): Pick<SealedSecret, 'wrappedDataKey' | 'masterKeyId'> | null {
    if (sealed.masterKeyId === this.current.id) return null;
    const dataKey = this.unwrap(owner, sealed);
    try {
      return { wrappedDataKey: this.wrap(owner, dataKey), masterKeyId: this.current.id };
    } finally {
      dataKey.fill(0);
    }
  }

  private wrap(owner: string, dataKey: Buffer) {
    const { iv, authTag, ciphertext } = encrypt(this.current.key, dataKey, dataKeyAad(owner, this.current.id));
    return Buffer.concat([iv, authTag, ciphertext]);
  }

  private unwrap(owner: string, sealed: SealedSecret) {
    const master = this.byId.get(sealed.masterKeyId);
    if (!master) throw new Error(`no master key ${sealed.masterKeyId} is configured (KEY_ENCRYPTION_KEY, KEY_ENCRYPTION_KEY_PREVIOUS)`);
    const wrapped = Buffer.from(sealed.wrappedDataKey);
    return decrypt(
      master,
      { iv: wrapped.subarray(0, IV_BYTES), authTag: wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES), ciphertext: wrapped.subarray(IV_BYTES + TAG_BYTES) },
      dataKeyAad(owner, sealed.masterKeyId),
    );
  }
}
