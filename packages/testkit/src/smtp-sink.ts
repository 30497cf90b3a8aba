import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Headers unfolded, quoted-printable soft breaks removed: easy to search. */
  text: string;
}

/**
 * A real SMTP server (the smtp-server package) on a free loopback port (or `port`) that keeps every
 * message it accepts (and hands it to `onMail`). With `refuse`, it answers 550 to every message instead; with
 * `acceptAfterMs`, it takes that long to accept (and keep) each message.
 */
export const startSmtpSink = async (options: { refuse?: boolean; acceptAfterMs?: number; port?: number; onMail?: (mail: ReceivedMail) => void } = {}) => {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.refuse) {
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        setTimeout(() => {
          const mail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            text: raw.replace(/\r\n[ \t]+/g, ' ').replace(/=\r\n/g, ''),
          };
          received.push(mail);
          options.onMail?.(mail);
          callback();
        }, options.acceptAfterMs ?? 0);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    port,
    received,
    /** Resolves with the first message matching, or fails after `timeoutMs`. */
    waitFor: async (predicate: (mail: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('no matching e-mail arrived');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
