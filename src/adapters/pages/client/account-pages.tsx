import { useEffect, useRef, useState } from 'preact/hooks';
import { api, fieldErrors, formatDate, NETWORK_ERROR, waitWords, type ApiAnswer } from './api.ts';
import { Alert, Field, PASSWORD_HINT } from './fields.tsx';

type Status = { kind: 'success' | 'error' | 'info'; text: string } | null;

/**
 * The link's token travels in the fragment (`#token=`), which browsers never send: it reaches
 * no server log and no Referer. Read once, then taken out of the address bar.
 */
const useLinkToken = () => {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    setToken(new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '');
    history.replaceState(null, '', window.location.pathname);
  }, []);
  return token;
};

/** The account API's refusals that are about one field, by the sentence it answers (see the contract). */
const WRONG_PASSWORD = 'The current password is wrong';

/**
 * Runs a form's request with its busy state, field errors and message; `done` words a success.
 * `on.conflict`: the field a 409 is said on (a taken e-mail address, as register says it);
 * `on.errors`: the field each refusal sentence is said on, next to its input.
 */
const useForm = () => {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState<Status>(null);
  const run = async (request: () => Promise<ApiAnswer>, done: (answer: ApiAnswer) => Status | void, on: { conflict?: string; errors?: Record<string, string> } = {}) => {
    setBusy(true);
    setErrors({});
    setStatus(null);
    try {
      const answer = await request();
      if (answer.ok) {
        const next = done(answer);
        if (next) setStatus(next);
      } else if (answer.status === 429) {
        setStatus({ kind: 'error', text: `Too many requests. Wait ${waitWords(Number(answer.headers.get('retry-after') ?? 60))} before you try again.` });
      } else if (answer.status === 409 && on.conflict) {
        setErrors({ [on.conflict]: [answer.body?.error ?? 'Taken'] });
      } else if (answer.body?.error && on.errors?.[answer.body.error]) {
        setErrors({ [on.errors[answer.body.error]!]: [answer.body.error] });
      } else if (answer.body?.details) {
        setErrors(fieldErrors(answer));
      } else {
        setStatus({ kind: 'error', text: answer.body?.error ?? 'That did not work. Please try again.' });
      }
    } catch {
      setStatus({ kind: 'error', text: NETWORK_ERROR });
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, status, run };
};

const post = (path: string, body: unknown) => api(path, { method: 'POST', body });

const StatusLine = ({ status }: { status: Status }) => (status ? <Alert kind={status.kind}>{status.text}</Alert> : null);

export const ForgotPasswordPage = () => {
  const [identifier, setIdentifier] = useState('');
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(
      () => post('/api/auth/forgot-password', { identifier }),
      (answer) => ({ kind: 'success', text: (answer.body as { message?: string }).message ?? '' }),
    );
  };
  return (
    <main class="narrow">
      <h1>Forgot your password?</h1>
      <p>Type the e-mail address or the username of your account. If it matches one, we send a link to choose a new password.</p>
      <form onSubmit={submit} noValidate>
        <StatusLine status={form.status} />
        <Field label="E-mail or username" errors={form.errors.identifier}>
          {(a11y) => <input {...a11y} name="identifier" autoComplete="username" required value={identifier} onInput={(e) => setIdentifier(e.currentTarget.value)} />}
        </Field>
        <button class="primary" type="submit" disabled={form.busy}>
          {form.busy ? 'Sending…' : 'Send the link'}
        </button>
      </form>
      <p>
        Remembered it? <a href="/login">Sign in</a>
      </p>
    </main>
  );
};

/** The service's answer to a reset link that is invalid, used or expired. */
const LINK_REFUSED = 'This link is invalid, used or expired';

export const ResetPasswordPage = () => {
  const token = useLinkToken();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(
      () => post('/api/auth/reset-password', { token: token ?? '', password }),
      () => setDone(true),
    );
  };
  // No token, or the service said the one given is no good: only the way to a new link is left.
  if (token === '' || form.status?.text === LINK_REFUSED) {
    return (
      <main class="narrow">
        <h1>Choose a new password</h1>
        <Alert>This link is invalid, used or expired.</Alert>
        <p>
          <a href="/forgot-password">Ask for a new link</a>
        </p>
      </main>
    );
  }
  if (done) {
    return (
      <main class="narrow">
        <h1>Password changed</h1>
        <Alert kind="success">Your new password is set, and every device was signed out.</Alert>
        <p>
          <a class="button primary" href="/login">
            Sign in
          </a>
        </p>
      </main>
    );
  }
  return (
    <main class="narrow">
      <h1>Choose a new password</h1>
      <form onSubmit={submit} noValidate>
        <StatusLine status={form.status} />
        {form.status?.kind === 'error' && (
          <p>
            <a href="/forgot-password">Ask for a new link</a>
          </p>
        )}
        <Field label="New password" errors={form.errors.password ?? form.errors.token} hint={PASSWORD_HINT}>
          {(a11y) => <input {...a11y} name="password" type="password" autoComplete="new-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
        </Field>
        <button class="primary" type="submit" disabled={form.busy || token === null}>
          {form.busy ? 'Saving…' : 'Set the new password'}
        </button>
      </form>
    </main>
  );
};

/** A button, not a request on load: a mail scanner that opens the link does not spend it. */
export const ConfirmEmailPage = () => {
  const token = useLinkToken();
  const form = useForm();
  const confirm = () =>
    void form.run(
      () => post('/api/auth/confirm-email', { token: token ?? '' }),
      (answer) => ({ kind: 'success', text: `Your e-mail address is now ${(answer.body as { email?: string }).email ?? ''}.` }),
    );
  return (
    <main class="narrow">
      <h1>Confirm your new e-mail address</h1>
      <StatusLine status={form.status} />
      {form.status?.kind === 'success' ? (
        <p>
          <a href="/dashboard/account">Back to your account</a>
        </p>
      ) : (
        <button class="primary" type="button" disabled={form.busy || token === null} onClick={confirm}>
          Confirm the new address
        </button>
      )}
    </main>
  );
};

/** A session in words that tell two of the same browser apart: when, and from where, it signed in. */
const sessionName = (s: SessionItem) => `${s.browser}, signed in ${formatDate(s.createdAt)}${s.address ? ` from ${s.address}` : ''}`;

interface SessionItem {
  id: string;
  current: boolean;
  createdAt: string | null;
  lastSeenAt: string;
  browser: string;
  address: string | null;
}

const ChangePassword = () => {
  const [fields, setFields] = useState({ currentPassword: '', newPassword: '' });
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(
      () => post('/api/account/password', fields),
      (answer) => {
        setFields({ currentPassword: '', newPassword: '' });
        const others = (answer.body as { signedOut?: number }).signedOut ?? 0;
        return { kind: 'success', text: `Password changed. ${others === 1 ? '1 other session was' : `${others} other sessions were`} signed out.` };
      },
      { errors: { [WRONG_PASSWORD]: 'currentPassword' } },
    );
  };
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <StatusLine status={form.status} />
      <Field label="Current password" errors={form.errors.currentPassword}>
        {(a11y) => <input {...a11y} type="password" autoComplete="current-password" value={fields.currentPassword} onInput={(e) => setFields({ ...fields, currentPassword: e.currentTarget.value })} />}
      </Field>
      <Field label="New password" errors={form.errors.newPassword} hint={`${PASSWORD_HINT} Every other session is signed out.`}>
        {(a11y) => <input {...a11y} type="password" autoComplete="new-password" value={fields.newPassword} onInput={(e) => setFields({ ...fields, newPassword: e.currentTarget.value })} />}
      </Field>
      <button class="primary" type="submit" disabled={form.busy}>
        Change the password
      </button>
    </form>
  );
};

const ChangeEmail = ({ email }: { email: string }) => {
  const [fields, setFields] = useState({ newEmail: '', password: '' });
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(
      () => post('/api/account/email', fields),
      () => {
        setFields({ newEmail: '', password: '' });
        return { kind: 'info', text: `We sent a link to ${fields.newEmail.trim()}. Your address changes when you open it (within 30 minutes).` };
      },
      { conflict: 'newEmail', errors: { [WRONG_PASSWORD]: 'password', 'This is already your e-mail address': 'newEmail' } },
    );
  };
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="email-title">
      <h2 id="email-title">E-mail address</h2>
      <p>
        Now: <strong>{email}</strong>
      </p>
      <StatusLine status={form.status} />
      <Field label="New e-mail address" errors={form.errors.newEmail}>
        {(a11y) => <input {...a11y} type="email" autoComplete="email" value={fields.newEmail} onInput={(e) => setFields({ ...fields, newEmail: e.currentTarget.value })} />}
      </Field>
      <Field label="Password" errors={form.errors.password}>
        {(a11y) => <input {...a11y} type="password" autoComplete="current-password" value={fields.password} onInput={(e) => setFields({ ...fields, password: e.currentTarget.value })} />}
      </Field>
      <button class="primary" type="submit" disabled={form.busy}>
        Send a confirmation link
      </button>
    </form>
  );
};

const Sessions = () => {
  const [sessions, setSessions] = useState<SessionItem[] | null>(null);
  const [status, setStatus] = useState<Status>(null);
  // The button pressed leaves with its row: the keyboard focus goes to the section's heading, next
  // to the message that says what happened, not to the top of the page.
  const heading = useRef<HTMLHeadingElement>(null);
  const load = async () => {
    const answer = await api<{ items: SessionItem[] }>('/api/account/sessions');
    if (answer.ok) setSessions(answer.body.items);
  };
  useEffect(() => void load(), []);
  const act = async (request: Promise<ApiAnswer<unknown>>, text: string) => {
    setStatus(null);
    try {
      const answer = await request;
      setStatus(answer.ok ? { kind: 'success', text } : { kind: 'error', text: 'That session was already signed out.' });
      await load();
    } catch {
      setStatus({ kind: 'error', text: NETWORK_ERROR });
    }
    heading.current?.focus();
  };
  return (
    <section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title" tabIndex={-1} ref={heading}>
        Where you are signed in
      </h2>
      <StatusLine status={status} />
      {sessions === null ? (
        <p class="muted">Loading…</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" role="table">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">Browser</th>
                <th scope="col" role="columnheader">Address</th>
                <th scope="col" role="columnheader">Signed in</th>
                <th scope="col" role="columnheader">Last seen</th>
                <th scope="col" role="columnheader">Action</th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {sessions.map((s) => (
                <tr key={s.id} role="row">
                  <td role="cell" data-label="Browser">{s.browser}</td>
                  <td role="cell" data-label="Address">{s.address ?? '—'}</td>
                  <td role="cell" data-label="Signed in">{formatDate(s.createdAt)}</td>
                  <td role="cell" data-label="Last seen">{formatDate(s.lastSeenAt)}</td>
                  <td role="cell">
                    {s.current ? (
                      <span>This browser</span>
                    ) : (
                      <button
                        type="button"
                        aria-label={`Sign out ${sessionName(s)}`}
                        onClick={() => void act(api(`/api/account/sessions/${s.id}`, { method: 'DELETE' }), `${sessionName(s)} was signed out.`)}
                      >
                        Sign out
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {sessions && sessions.length > 1 && (
        <button type="button" onClick={() => void act(api('/api/account/sessions/revoke-others', { method: 'POST' }), 'Every other session was signed out.')}>
          Sign out everywhere else
        </button>
      )}
    </section>
  );
};

const DeleteAccount = ({ username }: { username: string }) => {
  const [fields, setFields] = useState({ password: '', username: '' });
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(
      () => post('/api/account/delete', fields),
      () => {
        // The home page says it is done: an owner sent there with no word may think the click failed.
        window.location.assign('/?deleted=1');
      },
      { errors: { [WRONG_PASSWORD]: 'password', 'Type your username to confirm': 'username' } },
    );
  };
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="delete-title">
      <h2 id="delete-title">Delete the account</h2>
      <p>
        This erases your account, your bot, every conversation, lead, token and notification, at once and for good. Download your data first if you want to keep it.
      </p>
      <StatusLine status={form.status} />
      <Field label="Password" errors={form.errors.password}>
        {(a11y) => <input {...a11y} type="password" autoComplete="current-password" value={fields.password} onInput={(e) => setFields({ ...fields, password: e.currentTarget.value })} />}
      </Field>
      <Field label="Type your username to confirm" errors={form.errors.username} hint={`Your username is ${username}.`}>
        {(a11y) => <input {...a11y} autoComplete="off" value={fields.username} onInput={(e) => setFields({ ...fields, username: e.currentTarget.value })} />}
      </Field>
      <button class="danger" type="submit" disabled={form.busy || fields.username.trim().toLowerCase() !== username}>
        Delete my account for good
      </button>
    </form>
  );
};

export const AccountPage = (p: { user: { name: string; email: string } }) => (
  <>
    <ChangePassword />
    <ChangeEmail email={p.user.email} />
    <Sessions />
    <section class="card" aria-labelledby="export-title">
      <h2 id="export-title">Your data</h2>
      <p>One JSON file with your account, your bot, every conversation with its messages, every lead, your notifications and your tokens’ names and dates.</p>
      <a class="button" href="/api/account/export" download>
        Download my data
      </a>
    </section>
    <DeleteAccount username={p.user.name} />
  </>
);

const RETENTION_CHOICES = [30, 90, 180, 365, 730];

/** In Settings: conversations older than N days are deleted by a scheduled job, or never. */
export const RetentionSetting = () => {
  const [days, setDays] = useState<string | undefined>(undefined);
  const form = useForm();
  useEffect(() => {
    void api<{ days: number | null }>('/api/account/retention').then((answer) => setDays(answer.ok ? String(answer.body.days ?? 'never') : 'never'));
  }, []);
  if (days === undefined) return null;
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(
      () => api('/api/account/retention', { method: 'PATCH', body: { days: days === 'never' ? null : Number(days) } }),
      () => ({ kind: 'success', text: 'Retention saved.' }),
    );
  };
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="retention-title">
      <h2 id="retention-title">Conversation retention</h2>
      <StatusLine status={form.status as Status} />
      <Field label="Delete conversations older than" errors={form.errors.days} hint="Counted from a conversation’s last message. Your counters keep their totals.">
        {(a11y) => (
          <select {...a11y} value={days} onChange={(e) => setDays(e.currentTarget.value)}>
            <option value="never">Never</option>
            {[...new Set([...RETENTION_CHOICES, ...(days === 'never' ? [] : [Number(days)])])].sort((a, b) => a - b).map((n) => (
              <option key={n} value={String(n)}>
                {n} days
              </option>
            ))}
          </select>
        )}
      </Field>
      <button class="primary" type="submit" disabled={form.busy}>
        Save retention
      </button>
    </form>
  );
};

