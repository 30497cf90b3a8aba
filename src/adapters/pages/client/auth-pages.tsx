import { useState } from 'preact/hooks';
import { api, csrfToken, fieldErrors, formErrors, NETWORK_ERROR, waitWords, type ErrorBody } from './api.ts';
import { Alert, Field, PASSWORD_HINT } from './fields.tsx';

const signInMessage = (status: number, body: ErrorBody | null, retryAfter: string | null): string => {
  if (status === 401 || body?.error === 'CredentialsSignin') return 'Wrong e-mail, username or password.';
  if (status === 429 || body?.error === 'TooManyRequests') {
    return `Too many failed attempts. Wait ${waitWords(Number(retryAfter ?? 60))} before you try again.`;
  }
  if (status === 403) return 'Your sign-in form expired. Please try again.';
  return 'Signing in failed. Please try again.';
};

/** The Auth.js-shaped flow: a CSRF token, then the credentials; the answer names where to go. */
const signIn = async (login: string, password: string, callbackUrl: string): Promise<string | null> => {
  const token = await csrfToken();
  const answer = await api<ErrorBody & { url?: string }>('/api/auth/callback/credentials', {
    method: 'POST',
    body: { csrfToken: token, email: login, password, callbackUrl },
  });
  if (answer.ok && typeof answer.body?.url === 'string') {
    window.location.assign(answer.body.url);
    return null;
  }
  return signInMessage(answer.status, answer.body, answer.headers.get('retry-after'));
};

export const LoginPage = (p: { callbackUrl?: string; error?: string | null }) => {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(p.error === 'CredentialsSignin' ? 'Wrong e-mail, username or password.' : null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setError(await signIn(login, password, p.callbackUrl || '/dashboard'));
    } catch {
      setError(NETWORK_ERROR);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="narrow">
      <h1>Sign in</h1>
      <form onSubmit={submit} noValidate>
        {error && <Alert>{error}</Alert>}
        <Field label="E-mail or username">
          {(a11y) => <input {...a11y} name="email" autoComplete="username" required value={login} onInput={(e) => setLogin(e.currentTarget.value)} />}
        </Field>
        <Field label="Password">
          {(a11y) => (
            <input {...a11y} name="password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          )}
        </Field>
        <button class="primary" type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <a href="/forgot-password">Forgot your password?</a>
      </p>
      <p>
        New here? <a href="/register">Create an account</a>
      </p>
      <p>
        <a href="/">Career Bot home</a>
      </p>
    </main>
  );
};

const REGISTER_CONFLICTS: Record<string, { field: 'email' | 'username' | null }> = {
  'A user with this email already exists': { field: 'email' },
  'A user with this username already exists': { field: 'username' },
  'Email or username already exists': { field: null },
};

export const RegisterPage = () => {
  const [form, setForm] = useState({ username: '', email: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (event: { currentTarget: HTMLInputElement }) => setForm({ ...form, [key]: event.currentTarget.value });

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setFormError(null);
    try {
      const answer = await api('/api/auth/register', { method: 'POST', body: form });
      if (answer.status === 201) {
        const problem = await signIn(form.email, form.password, '/dashboard');
        if (problem) setFormError(`Your account was created, but signing in failed: ${problem}`);
        return;
      }
      const message = answer.body?.error ?? '';
      const conflict = REGISTER_CONFLICTS[message];
      if (answer.status === 409 && conflict) {
        if (conflict.field) setErrors({ [conflict.field]: [message] });
        else setFormError(message);
      } else if (answer.status === 429) {
        const wait = waitWords(Number(answer.headers.get('retry-after') ?? 60));
        setFormError(`Too many accounts were created from your network just now. Wait ${wait} before you try again.`);
      } else if (answer.status === 400 && answer.body?.details) {
        setErrors(fieldErrors(answer));
        const general = formErrors(answer);
        if (general.length) setFormError(general.join(' '));
      } else {
        setFormError('Creating the account failed. Please try again.');
      }
    } catch {
      setFormError(NETWORK_ERROR);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="narrow">
      <h1>Create your account</h1>
      <form onSubmit={submit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <Field label="Username" errors={errors.username} hint="3-30 characters: a-z, 0-9, _ or -, starting with a letter or digit.">
          {(a11y) => <input {...a11y} name="username" autoComplete="username" required value={form.username} onInput={set('username')} />}
        </Field>
        <Field label="E-mail" errors={errors.email}>
          {(a11y) => <input {...a11y} name="email" type="email" autoComplete="email" required value={form.email} onInput={set('email')} />}
        </Field>
        <Field label="Password" errors={errors.password} hint={PASSWORD_HINT}>
          {(a11y) => (
            <input {...a11y} name="password" type="password" autoComplete="new-password" required value={form.password} onInput={set('password')} />
          )}
        </Field>
        <button class="primary" type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p>
        Already have an account? <a href="/login">Sign in</a>
      </p>
      <p>
        <a href="/">Career Bot home</a>
      </p>
    </main>
  );
};
