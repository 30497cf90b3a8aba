import type { Mailer, MailMessage } from '../../src/application/ports.ts';

/** Keeps what it was asked to send; fails every send while `failure` is set. */
export class FakeMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failure: Error | null = null;

  async send(message: MailMessage): Promise<void> {
    if (this.failure) throw this.failure;
    this.sent.push({ ...message });
  }
}
