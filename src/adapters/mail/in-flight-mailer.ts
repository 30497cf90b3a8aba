import type { Mailer, MailMessage } from '../../application/ports.ts';

/**
 * Keeps track of the e-mails being sent, so that shutdown can wait for them: lead e-mails
 * go out after the answer, and a process that exits at once would drop them.
 */
export class InFlightMailer implements Mailer {
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly inner: Mailer) {}

  send(message: MailMessage): Promise<void> {
    const sent = this.inner.send(message);
    const tracked = sent.then(
      () => undefined,
      () => undefined,
    );
    this.sending.add(tracked);
    void tracked.finally(() => this.sending.delete(tracked));
    return sent;
  }

  /** How many e-mails are being sent now. */
  get pending(): number {
    return this.sending.size;
  }

  /**
   * Resolves when every e-mail sent so far has been delivered or has failed, or after
   * `timeoutMs`, whichever comes first; true when none was left behind.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.sending.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([Promise.all([...this.sending]).then(() => true as const), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
