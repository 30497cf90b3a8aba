import type { Logger } from 'pino';
import type { Mailer, MailMessage } from '../../application/ports.ts';

/** Without SMTP_URL: the e-mail is written to the log instead of sent. It never fails. */
export class LogMailer implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<void> {
    try {
      const text = (message.secrets ?? []).reduce((redacted, secret) => redacted.replaceAll(secret, '[redacted]'), message.text);
      this.logger.info({ mail: { to: message.to, subject: message.subject, text } }, 'e-mail (SMTP_URL unset, not sent)');
    } catch {
      // A log that cannot be written must not fail the request that triggered the e-mail.
    }
  }
}
