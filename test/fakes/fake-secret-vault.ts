import type { SealedSecret, SecretVault } from '../../src/application/ports.ts';

/** Reversible, and opens only for the account it sealed for: enough for the use cases. */
export const fakeVault: SecretVault = {
  seal: (owner, secret) => ({
    ciphertext: Buffer.from([...Buffer.from(secret)].reverse()),
    iv: Buffer.alloc(12),
    authTag: Buffer.from(owner),
    wrappedDataKey: Buffer.alloc(60),
    masterKeyId: 'fake',
    masterKeyVersion: 1,
  }),
  open: (owner, sealed: SealedSecret) => {
    if (Buffer.from(sealed.authTag).toString() !== owner) throw new Error('not this account');
    return Buffer.from([...Buffer.from(sealed.ciphertext)].reverse()).toString();
  },
};
