import { useEffect, useState } from 'preact/hooks';
import { api, fieldErrors, formatDate, NETWORK_ERROR } from './api.ts';
import { CopyButton, NoBotYet, type Overview } from './dashboard-layout.tsx';
import { Alert, ConfirmAction, Field, useFocusAfterDraw } from './fields.tsx';
import { RuntimeCommand } from './runtime-steps.tsx';

export interface TokenInfo {
  id: string;
  name: string;
  lastFour: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** `initial`: the server's list (null: no bot yet); undefined: fetched after loading. */
/** `overview`: a self-hosted bot's new token comes with the command that starts its runtime. */
export const TokensPage = (p: { initial?: TokenInfo[] | null | undefined; origin?: string; overview?: Overview | null | undefined }) => {
  const [tokens, setTokens] = useState<TokenInfo[] | null>(p.initial ?? null);
  const [noBot, setNoBot] = useState(p.initial === null);
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [minted, setMinted] = useState<{ token: string; name: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  /**
   * After Yes, revoke, the keyboard focus stays in the token's row (its data-focus part): on the date
   * it was revoked, which replaced the question, or back on Revoke when it failed.
   */
  const setFocusTo = useFocusAfterDraw<{ id: string; part: 'action' | 'revoked' }>(({ id, part }) =>
    document.querySelector<HTMLElement>(`[data-token="${CSS.escape(id)}"] [data-focus="${part}"]`),
  );

  const load = async () => {
    const answer = await api<{ tokens: TokenInfo[] }>('/api/bots/tokens');
    if (answer.status === 404) setNoBot(true);
    else if (answer.ok) setTokens(answer.body.tokens);
  };
  useEffect(() => {
    if (p.initial === undefined) void load();
  }, []);
  if (noBot) return <NoBotYet />;

  const mint = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setProblem(null);
    try {
      const body: Record<string, unknown> = { name };
      if (days.trim()) body.expiresInDays = Number(days);
      const answer = await api<{ token: string; tokenInfo: TokenInfo }>('/api/bots/tokens', { method: 'POST', body });
      if (answer.status === 201) {
        setMinted({ token: answer.body.token, name: answer.body.tokenInfo.name });
        setName('');
        setDays('');
        await load();
      } else if (answer.status === 400) setErrors(fieldErrors(answer));
      else setProblem('The token was not created. Please try again.');
    } catch {
      setProblem(NETWORK_ERROR);
    }
  };

  const revoke = async (id: string) => {
    const answer = await api(`/api/bots/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
    setConfirming(null);
    if (answer.status === 204) {
      await load();
      setFocusTo({ id, part: 'revoked' });
    } else {
      setProblem('The token was not revoked. Please try again.');
      setFocusTo({ id, part: 'action' });
    }
  };

  return (
    <>
      <p>A bot token lets your runtime or self-hosted widget read the bot’s settings and save conversations and leads. Keep it secret.</p>
      <form class="card" onSubmit={mint} noValidate aria-labelledby="mint-title">
        <h2 id="mint-title">Create a token</h2>
        <Field label="Token name" errors={errors.name} hint="1-80 characters, e.g. “Portfolio site”.">
          {(a11y) => <input {...a11y} maxLength={80} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Expires after (days, optional)" errors={errors.expiresInDays} hint="1 to 365. Leave empty for a token that does not expire.">
          {(a11y) => <input {...a11y} type="number" min={1} max={365} inputMode="numeric" value={days} onInput={(e) => setDays(e.currentTarget.value)} />}
        </Field>
        <button class="primary" type="submit">
          Create token
        </button>
      </form>
      {problem && <Alert>{problem}</Alert>}
      {minted && (
        <section class="card minted" aria-labelledby="minted-title">
          <h2 id="minted-title">Your new token “{minted.name}”</h2>
          <Alert kind="info">Copy it now: you will not see it again.</Alert>
          <Field label="New token">{(a11y) => <input {...a11y} readOnly value={minted.token} class="mono" onFocus={(e) => e.currentTarget.select()} />}</Field>
          <CopyButton text={minted.token} label="Copy token" />{' '}
          <button type="button" onClick={() => setMinted(null)}>
            Done
          </button>
          {p.overview?.settings.deploymentMode === 'self_hosted' && (
            <>
              <h3>Start your runtime with it</h3>
              <RuntimeCommand platformUrl={p.origin ?? ''} provider={p.overview.llm.provider} model={p.overview.llm.model} token={minted.token} />
            </>
          )}
        </section>
      )}
      <section aria-labelledby="tokens-title">
        <h2 id="tokens-title">Tokens</h2>
        {tokens === null ? (
          <p class="muted">Loading…</p>
        ) : tokens.length === 0 ? (
          <p class="muted">No tokens yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="stack" role="table">
              <thead role="rowgroup">
                <tr role="row">
                  <th scope="col" role="columnheader">Name</th>
                  <th scope="col" role="columnheader">Ends with</th>
                  <th scope="col" role="columnheader">Created</th>
                  <th scope="col" role="columnheader">Last used</th>
                  <th scope="col" role="columnheader">Expires</th>
                  <th scope="col" role="columnheader">Action</th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {tokens.map((token) => (
                  <tr key={token.id} role="row" data-token={token.id}>
                    <td role="cell" class="token-name" data-label="Name">{token.name}</td>
                    <td role="cell" class="mono nowrap" data-label="Ends with">…{token.lastFour}</td>
                    <td role="cell" class="nowrap" data-label="Created">{formatDate(token.createdAt)}</td>
                    <td role="cell" class="nowrap" data-label="Last used">{token.lastUsedAt ? formatDate(token.lastUsedAt) : 'Never'}</td>
                    <td role="cell" class="nowrap" data-label="Expires">{token.expiresAt ? formatDate(token.expiresAt) : 'Never'}</td>
                    <td role="cell">
                      {token.revokedAt ? (
                        <span tabIndex={-1} data-focus="revoked">
                          Revoked {formatDate(token.revokedAt)}
                        </span>
                      ) : (
                        <ConfirmAction
                          asking={confirming === token.id}
                          onAsk={() => setConfirming(token.id)}
                          onBack={() => setConfirming(null)}
                          onConfirm={() => void revoke(token.id)}
                          action="Revoke"
                          actionName={`Revoke ${token.name}`}
                          question={`Revoke ${token.name}?`}
                          warning={`Revoke “${token.name}”? Widgets using it stop working at once.`}
                          confirm="Yes, revoke"
                          back="Cancel"
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
};
