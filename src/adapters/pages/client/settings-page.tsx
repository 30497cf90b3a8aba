import { useEffect, useState } from 'preact/hooks';
import { DEFAULT_RATE_LIMITS, MAX_RATE_LIMITS, rateLimitProblems } from '../../../domain/bot-rules.ts';
import { api, fieldErrors, NETWORK_ERROR } from './api.ts';
import { NoBotYet, useOverview, type Overview } from './dashboard-layout.tsx';
import { Alert, Field } from './fields.tsx';
import { OwnerKeySection, type OwnerKeyView } from './owner-key-section.tsx';

const LimitField = (p: {
  label: string;
  fallback: number;
  value: string;
  useDefault: boolean;
  errors?: string[] | undefined;
  onValue: (value: string) => void;
  onDefault: (value: boolean) => void;
}) => (
  <div class="limit">
    <Field label={p.label} errors={p.errors}>
      {(a11y) => <input {...a11y} type="number" min={1} inputMode="numeric" disabled={p.useDefault} value={p.useDefault ? String(p.fallback) : p.value} onInput={(e) => p.onValue(e.currentTarget.value)} />}
    </Field>
    <label class="check">
      <input type="checkbox" checked={p.useDefault} onChange={(e) => p.onDefault(e.currentTarget.checked)} /> Use the default ({p.fallback})
    </label>
  </div>
);

const limitState = (value: number, fallback: number) => ({ value: String(value), useDefault: value === fallback });

/**
 * The API says what is wrong with the rate limits as one list for both; each limit's own
 * words, as the API words them, go under its field.
 */
const limitErrors = (limit: { value: string; useDefault: boolean }, max: number): string[] | undefined => {
  if (limit.useDefault) return undefined;
  const found = rateLimitProblems(Number(limit.value), max);
  return found.length ? found : undefined;
};

/** The page waits for the bot and the account settings, so the form starts from what is saved. */
export const SettingsPage = (p: {
  initial?: Overview | null | undefined;
  initialAccount?: { notifyLeadsEmail: boolean } | null | undefined;
  initialOwnerKey?: OwnerKeyView | null | undefined;
}) => {
  const { loading, overview, set } = useOverview(p.initial);
  const [notify, setNotify] = useState<boolean | null | undefined>(p.initialAccount === undefined ? undefined : (p.initialAccount?.notifyLeadsEmail ?? null));
  useEffect(() => {
    if (p.initialAccount !== undefined) return;
    void api<{ notifyLeadsEmail: boolean }>('/api/account/settings').then((answer) => setNotify(answer.ok ? answer.body.notifyLeadsEmail : null));
  }, []);
  if (loading || notify === undefined) return <p class="muted">Loading…</p>;
  return (
    <>
      <SettingsForm overview={overview} onSaved={set} savedNotify={notify} />
      <OwnerKeySection initial={p.initialOwnerKey} provider={overview?.llm.provider ?? null} />
    </>
  );
};

const SettingsForm = ({ overview, onSaved, savedNotify }: { overview: Overview | null; onSaved: (overview: Overview) => void; savedNotify: boolean | null }) => {
  const [theme, setTheme] = useState(overview?.settings.themeColor ?? '#4f46e5');
  const [mode, setMode] = useState(overview?.settings.deploymentMode ?? 'managed');
  const [perMinute, setPerMinute] = useState(limitState(overview?.settings.rateLimits.perMinute ?? DEFAULT_RATE_LIMITS.perMinute, DEFAULT_RATE_LIMITS.perMinute));
  const [perDay, setPerDay] = useState(limitState(overview?.settings.rateLimits.perDay ?? DEFAULT_RATE_LIMITS.perDay, DEFAULT_RATE_LIMITS.perDay));
  const [sites, setSites] = useState((overview?.settings.embedOrigins ?? []).join('\n'));
  const [notify, setNotify] = useState(savedNotify);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const save = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setStatus(null);
    try {
      const requests: Promise<boolean>[] = [];
      if (overview) {
        requests.push(
          api<Overview>('/api/bots/settings', {
            method: 'PATCH',
            body: {
              themeColor: theme,
              deploymentMode: mode,
              rateLimits: {
                perMinute: perMinute.useDefault ? null : Number(perMinute.value),
                perDay: perDay.useDefault ? null : Number(perDay.value),
              },
              embedOrigins: sites.split('\n').map((site) => site.trim()).filter(Boolean),
            },
          }).then((answer) => {
            if (answer.ok) {
              onSaved(answer.body);
              setSites(answer.body.settings.embedOrigins.join('\n'));
            }
            else {
              const { rateLimits, ...others } = fieldErrors(answer);
              const perLimit = { perMinute: limitErrors(perMinute, MAX_RATE_LIMITS.perMinute), perDay: limitErrors(perDay, MAX_RATE_LIMITS.perDay) };
              // Should the words not be placed, they stay under the first limit, as the API said them.
              const placed = !rateLimits || perLimit.perMinute || perLimit.perDay ? perLimit : { perMinute: rateLimits, perDay: undefined };
              setErrors({ ...others, ...(placed.perMinute && { perMinute: placed.perMinute }), ...(placed.perDay && { perDay: placed.perDay }) });
            }
            return answer.ok;
          }),
        );
      }
      if (notify !== null) {
        requests.push(api('/api/account/settings', { method: 'PATCH', body: { notifyLeadsEmail: notify } }).then((answer) => answer.ok));
      }
      const results = await Promise.all(requests);
      setStatus(results.every(Boolean) ? { kind: 'success', text: 'Settings saved.' } : { kind: 'error', text: 'Some settings were not saved: see the fields marked above.' });
    } catch {
      setStatus({ kind: 'error', text: NETWORK_ERROR });
    }
  };

  return (
    <form class="card settings" onSubmit={save} noValidate>
      {overview ? (
        <>
          <Field label="Theme colour" errors={errors.themeColor} hint={`The widget’s accent colour (${theme}).`}>
            {(a11y) => <input {...a11y} type="color" value={theme} onInput={(e) => setTheme(e.currentTarget.value)} />}
          </Field>
          <fieldset>
            <legend>Deployment mode</legend>
            <label class="check">
              <input type="radio" name="mode" value="managed" checked={mode === 'managed'} onChange={() => setMode('managed')} /> Managed: the bot runs here
            </label>
            <label class="check">
              <input type="radio" name="mode" value="self_hosted" checked={mode === 'self_hosted'} onChange={() => setMode('self_hosted')} /> Self-hosted: your
              widget calls your own model
            </label>
          </fieldset>
          <fieldset>
            <legend>Rate limits for chat, conversations and leads</legend>
            <LimitField
              label="Messages per minute"
              fallback={DEFAULT_RATE_LIMITS.perMinute}
              {...perMinute}
              errors={errors.perMinute}
              onValue={(value) => setPerMinute({ value, useDefault: false })}
              onDefault={(useDefault) => setPerMinute({ ...perMinute, useDefault })}
            />
            <LimitField
              label="Messages per day"
              fallback={DEFAULT_RATE_LIMITS.perDay}
              {...perDay}
              errors={errors.perDay}
              onValue={(value) => setPerDay({ value, useDefault: false })}
              onDefault={(useDefault) => setPerDay({ ...perDay, useDefault })}
            />
          </fieldset>
          <Field
            label="Sites allowed to embed the chat"
            errors={errors.embedOrigins}
            hint="One site per line, like https://www.example.com. The managed widget opens its chat only on these sites; leave empty to allow any site."
          >
            {(a11y) => <textarea {...a11y} rows={3} spellcheck={false} value={sites} onInput={(e) => setSites(e.currentTarget.value)} />}
          </Field>
        </>
      ) : (
        <NoBotYet />
      )}
      {notify !== null && (
        <label class="check">
          <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.currentTarget.checked)} /> E-mail me when a new lead arrives
        </label>
      )}
      {status && <Alert kind={status.kind}>{status.text}</Alert>}
      <button class="primary" type="submit">
        Save settings
      </button>
    </form>
  );
};
