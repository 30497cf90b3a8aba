// npm run mail:catch: a local SMTP server that prints every e-mail the service sends, links
// included, so that a password-reset or e-mail-confirmation link can be followed on a
// developer's machine without a mail provider. In another terminal:
//   SMTP_URL=smtp://127.0.0.1:2525 npm start
// The service itself never writes these links to its log; this prints them on the terminal of
// whoever runs it, which is the point.
import { startSmtpSink, type ReceivedMail } from '@careerbot/testkit/smtp';

const port = Number(process.env.MAIL_CATCH_PORT ?? 2525);

await startSmtpSink({ port, onMail: (mail) => console.log(printable(mail)) });
console.log(`Catching e-mail on smtp://127.0.0.1:${port}. Start the service with SMTP_URL=smtp://127.0.0.1:${port}; Ctrl-C stops.`);

/** The e-mail's addressee, subject and plain-text body, decoded. */
function printable(mail: ReceivedMail): string {
  const split = mail.text.search(/\r?\n\r?\n/);
  const headers = split < 0 ? mail.text : mail.text.slice(0, split);
  const body = split < 0 ? '' : mail.text.slice(split).trim();
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : encoding === 'quoted-printable' ? quotedPrintable(body) : body;
  return [`──── to ${mail.to.join(', ')}: ${header('Subject')}`, text.replace(/\r\n/g, '\n'), ''].join('\n');
}

/** Quoted-printable to text: `=XX` are bytes of UTF-8 (soft line breaks are already gone). */
function quotedPrintable(body: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const escaped = body[i] === '=' && /^[0-9A-F]{2}$/i.test(body.slice(i + 1, i + 3));
    if (escaped) {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(body[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
