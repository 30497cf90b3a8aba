import type { PasswordHasher } from '../../src/application/ports.ts';

/** Reversible "hashing" for unit tests; records which comparisons ran. */
export class FakePasswordHasher implements PasswordHasher {
  readonly comparisons: ('real' | 'dummy')[] = [];

  async hash(password: string) {
    return `hashed:${password}`;
  }

  async verify(password: string, hash: string) {
    this.comparisons.push('real');
    return hash === `hashed:${password}`;
  }

  async verifyDummy(_password: string): Promise<false> {
    this.comparisons.push('dummy');
    return false;
  }
}
