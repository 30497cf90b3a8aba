import type { NewOwnerKey, OwnerKeyRecord, OwnerKeyRepository, OwnerKeyStatus } from '../../src/application/ports.ts';

const status = (record: OwnerKeyRecord): OwnerKeyStatus => {
  const { sealed: _sealed, ...rest } = record;
  return { ...rest };
};

export class InMemoryOwnerKeyRepository implements OwnerKeyRepository {
  private readonly keys = new Map<string, OwnerKeyRecord>();
  /** Answers counted per `user day`. */
  private readonly answered = new Map<string, number>();

  async save(userId: string, key: NewOwnerKey, now: Date): Promise<OwnerKeyStatus> {
    const previous = this.keys.get(userId);
    const record: OwnerKeyRecord = {
      ...key,
      enabled: previous?.enabled ?? true,
      dailyCap: previous?.dailyCap ?? 100,
      pausedAt: null,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    };
    this.keys.set(userId, record);
    return status(record);
  }

  async remove(userId: string): Promise<boolean> {
    return this.keys.delete(userId);
  }

  async status(userId: string): Promise<OwnerKeyStatus | null> {
    const record = this.keys.get(userId);
    return record ? status(record) : null;
  }

  async findForChat(userId: string): Promise<OwnerKeyRecord | null> {
    const record = this.keys.get(userId);
    return record ? { ...record } : null;
  }

  async updateSettings(userId: string, patch: { enabled?: boolean; dailyCap?: number }, now: Date): Promise<OwnerKeyStatus | null> {
    const record = this.keys.get(userId);
    if (!record) return null;
    const updated = { ...record, enabled: patch.enabled ?? record.enabled, dailyCap: patch.dailyCap ?? record.dailyCap, updatedAt: new Date(now) };
    this.keys.set(userId, updated);
    return status(updated);
  }

  async pause(userId: string, now: Date): Promise<boolean> {
    const record = this.keys.get(userId);
    if (!record || record.pausedAt) return false;
    this.keys.set(userId, { ...record, pausedAt: new Date(now) });
    return true;
  }

  async countAnswer(userId: string, day: string, cap: number): Promise<number | null> {
    const count = this.answered.get(`${userId} ${day}`) ?? 0;
    if (count >= cap) return null;
    this.answered.set(`${userId} ${day}`, count + 1);
    return count + 1;
  }

  async usage(userId: string, today: string): Promise<{ today: number; last30Days: number }> {
    const end = Date.parse(today);
    let last30Days = 0;
    for (const [key, count] of this.answered) {
      const [user, day] = key.split(' ');
      const age = (end - Date.parse(day!)) / 86_400_000;
      if (user === userId && age >= 0 && age < 30) last30Days += count;
    }
    return { today: this.answered.get(`${userId} ${today}`) ?? 0, last30Days };
  }
}
