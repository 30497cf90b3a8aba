import bcrypt from 'bcrypt';
import type { Clock, PasswordHasher } from '../application/ports.ts';

export class BcryptPasswordHasher implements PasswordHasher {
  private readonly dummyHash: string;

  constructor(private readonly cost = 10) {
    // Compared against for unknown accounts, so they cost what a wrong password costs.
    this.dummyHash = bcrypt.hashSync('dummy password for timing equality', cost);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  verify(password: string, hash: string): Promise<boolean> {
    return bcrypt.compare(password, hash);
  }

  async verifyDummy(password: string): Promise<false> {
    await bcrypt.compare(password, this.dummyHash);
    return false;
  }
}

export const systemClock: Clock = { now: () => new Date() };
