import { describe, expect, it } from 'vitest';
import type { Mailer, MailMessage } from '../../src/application/ports.ts';
import { InFlightMailer } from '../../src/adapters/mail/in-flight-mailer.ts';

/** A mailer whose sends finish only when the test says so. */
const controlledMailer = () => {
  const finishes: { deliver: () => void; fail: (error: Error) => void }[] = [];
  const delivered: string[] = [];
  const mailer: Mailer = {
    send: (message: MailMessage) =>
      new Promise<void>((resolve, reject) => {
        finishes.push({
          deliver: () => {
            delivered.push(message.to);
            resolve();
          },
          fail: reject,
        });
      }),
  };
  return { mailer, finishes, delivered };
};

const message = (to: string): MailMessage => ({ to, subject: 'New lead', text: 'Grace Hopper wants to talk.' });

describe('InFlightMailer', () => {
  it('waits for the e-mails still being sent, delivered or failed', async () => {
    const { mailer, finishes, delivered } = controlledMailer();
    const tracked = new InFlightMailer(mailer);
    const first = tracked.send(message('ada@example.com'));
    const second = tracked.send(message('grace@example.com'));
    expect(tracked.pending).toBe(2);

    let drained: boolean | undefined;
    const draining = tracked.drain(5_000).then((result) => (drained = result));
    finishes[0]!.deliver();
    await first;
    expect(drained).toBeUndefined(); // one still on its way
    finishes[1]!.fail(new Error('550 mailbox unavailable'));
    await expect(second).rejects.toThrow('550'); // the caller still sees the failure

    await draining;
    expect(drained).toBe(true);
    expect(delivered).toEqual(['ada@example.com']);
    expect(tracked.pending).toBe(0);
  });

  it('stops waiting after the timeout and says an e-mail was left behind', async () => {
    const { mailer } = controlledMailer();
    const tracked = new InFlightMailer(mailer);
    void tracked.send(message('ada@example.com'));
    expect(await tracked.drain(20)).toBe(false);
    expect(tracked.pending).toBe(1);
  });

  it('has nothing to wait for when nothing is being sent', async () => {
    expect(await new InFlightMailer(controlledMailer().mailer).drain(1)).toBe(true);
  });
});
