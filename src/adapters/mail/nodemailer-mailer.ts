import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from '../../application/ports.ts';

export interface NodemailerMailerOptions {
  /** smtp:// or smtps:// URL, credentials included when the server needs them. */
  smtpUrl: string;
  from: string;
  /** Bounds connecting, the greeting, and each socket wait. Default 10 s. */
  timeoutMs?: number;
}

/** A delivery failure that names what failed without the SMTP URL, credentials or message. */
class MailDeliveryError extends Error {
  constructor(readonly code: string) {
    super(`SMTP delivery failed (${code})`);
    this.name = 'MailDeliveryError';
  }
}

const failureCode = (error: unknown): string => {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const parts = [typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'UNKNOWN'];
  if (typeof responseCode === 'number') parts.push(String(responseCode));
  return parts.join(' ');
};

/** Lead e-mails over SMTP (SMTP_URL, MAIL_FROM). */
export class NodemailerMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly options: NodemailerMailerOptions) {
    const timeout = options.timeoutMs ?? 10_000;
    this.transport = createTransport({
      url: options.smtpUrl,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.options.from, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      throw new MailDeliveryError(failureCode(error));
    }
  }

  close(): void {
    this.transport.close();
  }
}
