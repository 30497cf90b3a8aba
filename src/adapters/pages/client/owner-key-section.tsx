import { useEffect, useRef, useState } from 'preact/hooks';
import { PROVIDER_NAMES } from '@careerbot/widget/chat-problems';
import { api, fieldErrors, formatDate, NETWORK_ERROR } from './api.ts';
import { Alert, ConfirmAction, Field, useFocusAfterDraw } from './fields.tsx';

/** GET /api/account/llm-key: never the key, only what the owner may see of it. */
export interface OwnerKeyView {
  key: {
    provider: string;
    azureEndpoint: string | null;
    lastFour: string;
    checked: boolean;
    enabled: boolean;
    paused: boolean;
    dailyCap: number;
    createdAt: string;
  } | null;
  usage: { today: number; last30Days: number };
}

/** Whether visitors are answered with the owner's key: one is saved, switched on and not paused. */
export const ownerKeyAnswers = (view: OwnerKeyView | null | undefined): boolean => !!(view?.key?.enabled && !view.key.paused);

/** How many messages the owner's key answered: on the dashboard and under "Answer with my key". */
export const OwnerKeyUsage = (p: { usage: OwnerKeyView['usage'] }) => (
  <p class="owner-key-usage">
    Answered with your key: <strong>{p.usage.today}</strong> today, <strong>{p.usage.last30Days}</strong> in the last 30 days.
  </p>
);

/** Loads the status when the server did not render the page with it. */
export const useOwnerKey = (initial: OwnerKeyView | null | undefined) => {
  const [view, setView] = useState<OwnerKeyView | null | undefined>(initial ?? undefined);
  useEffect(() => {
    if (initial) return;
    void api<OwnerKeyView>('/api/account/llm-key').then((answer) => setView(answer.ok ? answer.body : null));
  }, []);
  return [view, setView] as const;
};

/**
 * "Answer with my key": the owner stores a key for the bot's provider (checked with one cheap
 * call), replaces or removes it, switches answering with it on or off, and sets the daily cap.
 * The page shows only the provider, the last four characters and when the key was added.
 */
export const OwnerKeySection = (p: { initial?: OwnerKeyView | null | undefined; provider: string | null }) => {
  const [view, setView] = useOwnerKey(p.initial);
  const [apiKey, setApiKey] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [cap, setCap] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState<{ kind: 'success' | 'error' | 'info'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Once the key is removed, the keyboard focus goes to the field for a new one (its data-focus part).
  const section = useRef<HTMLElement>(null);
  const setFocusTo = useFocusAfterDraw<'key'>((part) => section.current?.querySelector<HTMLElement>(`[data-focus="${part}"]`));
  if (view === undefined) return <p class="muted">Loading…</p>;
  const key = view?.key ?? null;
  const providerName = PROVIDER_NAMES[p.provider ?? ''] ?? p.provider ?? '';

  const call = async (work: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setErrors({});
    setStatus(null);
    try {
      await work();
    } catch {
      setStatus({ kind: 'error', text: NETWORK_ERROR });
    } finally {
      setBusy(false);
    }
  };

  const save = (event: Event) => {
    event.preventDefault();
    void call(async () => {
      const body: Record<string, string> = { apiKey: apiKey.trim() };
      if (p.provider === 'azure') body.azureEndpoint = endpoint.trim();
      const answer = await api<OwnerKeyView>('/api/account/llm-key', { method: 'POST', body });
      if (!answer.ok) {
        const fields = fieldErrors(answer);
        setErrors(fields);
        if (!Object.keys(fields).length) setStatus({ kind: 'error', text: (answer.body as { error?: string }).error ?? 'The key was not saved.' });
        return;
      }
      setApiKey('');
      setView(answer.body);
      setStatus(
        answer.body.key?.checked
          ? { kind: 'success', text: 'Key saved. Your bot now answers visitors who bring no key.' }
          : { kind: 'info', text: 'Key saved, but the provider could not be reached to check it. It will be used as it is.' },
      );
    });
  };

  const patch = (body: { enabled?: boolean; dailyCap?: number }, done: string) =>
    void call(async () => {
      const answer = await api<OwnerKeyView>('/api/account/llm-key', { method: 'PATCH', body });
      if (!answer.ok) return setErrors(fieldErrors(answer));
      setView(answer.body);
      setStatus({ kind: 'success', text: done });
    });

  const remove = () =>
    void call(async () => {
      setConfirming(false);
      const answer = await api('/api/account/llm-key', { method: 'DELETE' });
      if (!answer.ok) return setStatus({ kind: 'error', text: 'The key was not removed. Please try again.' });
      setView({ key: null, usage: view?.usage ?? { today: 0, last30Days: 0 } });
      setStatus({ kind: 'success', text: 'Key removed.' });
      // The next thing to do, if anything: store another key.
      setFocusTo('key');
    });

  return (
    <section class="card owner-key" aria-labelledby="owner-key-title" ref={section}>
      <h2 id="owner-key-title">Answer with my key</h2>
      <p class="muted">
        With your own provider key stored here, visitors of your public page and your widget can chat without a key of theirs. A visitor’s own key still
        wins. The key is stored encrypted and never shown again.
      </p>
      {!p.provider ? (
        <Alert kind="info">Save your bot first: the key is for the provider it answers with.</Alert>
      ) : (
        <>
          {key && (
            <dl class="owner-key-status">
              <dt>Provider</dt>
              <dd>{PROVIDER_NAMES[key.provider] ?? key.provider}</dd>
              {key.azureEndpoint && (
                <>
                  <dt>Endpoint</dt>
                  <dd>{key.azureEndpoint}</dd>
                </>
              )}
              <dt>Key</dt>
              <dd>…{key.lastFour}</dd>
              <dt>Added</dt>
              <dd>{formatDate(key.createdAt)}</dd>
              {!key.checked && (
                <>
                  <dt>Check</dt>
                  <dd>The provider could not be reached to check this key.</dd>
                </>
              )}
            </dl>
          )}
          {key?.paused && (
            <Alert>The provider refused this key while answering (revoked, or out of credit). Answering with it is paused: save a working key to resume.</Alert>
          )}
          {/* With no key and nothing answered with one lately, a line of zeros says nothing. */}
          {view && (key || view.usage.last30Days > 0) && <OwnerKeyUsage usage={view.usage} />}
          <form onSubmit={save} noValidate>
            <Field label={key ? `New ${providerName} API key` : `Your ${providerName} API key`} errors={errors.apiKey} hint="Checked with one small call to the provider before it is stored.">
              {(a11y) => <input {...a11y} data-focus="key" type="password" autoComplete="off" spellcheck={false} value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />}
            </Field>
            {p.provider === 'azure' && (
              <Field label="Azure OpenAI endpoint" errors={errors.azureEndpoint} hint="For example https://your-resource.openai.azure.com">
                {(a11y) => <input {...a11y} type="url" autoComplete="off" value={endpoint} onInput={(e) => setEndpoint(e.currentTarget.value)} />}
              </Field>
            )}
            <button class="primary" type="submit" aria-busy={busy}>
              {key ? 'Replace key' : 'Save key'}
            </button>
          </form>
          {key && (
            <div class="owner-key-settings">
              <label class="check">
                <input type="checkbox" checked={key.enabled} onChange={(e) => patch({ enabled: e.currentTarget.checked }, e.currentTarget.checked ? 'Visitors without a key are answered with yours.' : 'Visitors must bring their own key.')} />{' '}
                Answer visitors who bring no key with my key
              </label>
              <form
                class="cap-row"
                onSubmit={(event) => {
                  event.preventDefault();
                  patch({ dailyCap: Number(cap || key.dailyCap) }, 'Daily cap saved.');
                }}
                noValidate
              >
                <Field label="Messages answered with my key per day" errors={errors.dailyCap} hint="Past it, visitors are told the bot has reached its limit for today.">
                  {(a11y) => <input {...a11y} type="number" min={1} max={100000} inputMode="numeric" value={cap || String(key.dailyCap)} onInput={(e) => setCap(e.currentTarget.value)} />}
                </Field>
                <button type="submit">Save cap</button>
              </form>
              <ConfirmAction
                asking={confirming}
                onAsk={() => setConfirming(true)}
                onBack={() => setConfirming(false)}
                onConfirm={remove}
                action="Remove key"
                actionClass="danger"
                question="Remove your key?"
                warning="Visitors will then need a key of their own."
                confirm="Yes, remove it"
                back="Keep it"
              />
            </div>
          )}
        </>
      )}
      {status && <Alert kind={status.kind}>{status.text}</Alert>}
    </section>
  );
};
