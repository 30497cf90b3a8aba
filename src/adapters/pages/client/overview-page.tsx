import { InsightsSummary } from './insights-page.tsx';
import { useState } from 'preact/hooks';
import { api } from './api.ts';
import { ChatPanel } from './chat-panel.tsx';
import { CopyButton, NoBotYet, useOverview, type Overview } from './dashboard-layout.tsx';
import { Alert } from './fields.tsx';
import { ownerKeyAnswers, OwnerKeyUsage, type OwnerKeyView } from './owner-key-section.tsx';
import { RuntimeSteps } from './runtime-steps.tsx';
import type { TokenInfo } from './tokens-page.tsx';

const ActiveSwitch = (p: { overview: Overview; onChange: (overview: Overview) => void }) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const active = p.overview.bot.isActive;
  const toggle = async () => {
    // Not `disabled` while saving: a disabled button drops the keyboard focus.
    if (busy) return;
    setBusy(true);
    setError(null);
    const answer = await api<Overview>('/api/bots/settings', { method: 'PATCH', body: { isActive: !active } });
    setBusy(false);
    if (answer.ok) p.onChange(answer.body);
    else setError('The change was not saved. Please try again.');
  };
  return (
    <div class="switch-row">
      <button type="button" role="switch" aria-checked={active} class={`switch ${active ? 'on' : ''}`} aria-busy={busy} onClick={() => void toggle()}>
        <span class="switch-track" aria-hidden="true" />
        <span>Bot active</span>
      </button>
      <span class="muted">{active ? 'Visitors can chat with your bot.' : 'Your bot is switched off: its page and chat answer “not available”.'}</span>
      {error && <Alert>{error}</Alert>}
    </div>
  );
};

export const OverviewPage = (p: {
  origin: string;
  initial?: Overview | null | undefined;
  ownerKey?: OwnerKeyView | null | undefined;
  tokens?: TokenInfo[] | undefined;
}) => {
  const { loading, overview, set } = useOverview(p.initial);
  if (loading) return <p class="muted">Loading…</p>;
  if (!overview) return <NoBotYet />;
  const { bot, stats } = overview;
  const publicLink = `${p.origin}/b/${bot.id}`;
  const snippet = `<script src="${p.origin}/widget.js" data-bot-id="${bot.id}" async></script>`;
  const selfHosted = overview.settings.deploymentMode === 'self_hosted';
  return (
    <>
      <section class="card bot-card" aria-label="Your bot">
        {/* A switched-off bot's avatar is not served, as its public page is not. */}
        {bot.isActive ? (
          <img class="avatar" src={overview.image} alt="" width={64} height={64} />
        ) : (
          <span class="avatar avatar-off" aria-hidden="true" />
        )}
        <div class="grow">
          <h2>{bot.name}</h2>
          {bot.headline && <p class="muted">{bot.headline}</p>}
          <p>
            Status: <strong>{bot.isActive ? 'Active' : 'Inactive'}</strong>
          </p>
          <ActiveSwitch overview={overview} onChange={set} />
        </div>
      </section>
      <section class="stats" aria-label="Counters">
        <div class="stat">
          <span class="stat-value">{stats.totalConversations}</span>
          <span class="stat-label">Conversations</span>
        </div>
        <div class="stat">
          <span class="stat-value">{stats.totalMessages}</span>
          <span class="stat-label">Messages</span>
        </div>
        <div class="stat">
          <span class="stat-value">{stats.totalLeads}</span>
          <span class="stat-label">Leads</span>
        </div>
      </section>
      {!selfHosted && (
        <p class="muted small">
          Only a self-hosted widget or runtime records conversations, messages and leads: chats on your public page and in the managed widget
          are answered but not counted here. <a href="/dashboard/tokens">Set up a self-hosted widget</a>.
        </p>
      )}
      <InsightsSummary />
      {p.ownerKey?.key && (
        <section class="card" aria-labelledby="owner-key-usage">
          <h2 id="owner-key-usage">Your key</h2>
          <OwnerKeyUsage usage={p.ownerKey.usage} />
          {p.ownerKey.key.paused && <Alert>The provider refused your key: answering with it is paused. Save a working key in Settings.</Alert>}
        </section>
      )}
      <section class="card" aria-labelledby="share">
        <h2 id="share">Share your bot</h2>
        <p>
          {ownerKeyAnswers(p.ownerKey)
            ? 'Its public page, where a visitor chats with no key of their own (your key answers):'
            : 'Its public page, where a visitor chats with their own provider key:'}
        </p>
        <p class="copy-row">
          <a href={publicLink}>{publicLink}</a> <CopyButton text={publicLink} label="Copy link" />
        </p>
        {!selfHosted && (
          <>
            <h3>Put the bot on your site</h3>
            <p>Paste this tag into any page of your site:</p>
            <pre class="snippet">
              <code>{snippet}</code>
            </pre>
            <CopyButton text={snippet} label="Copy snippet" />
          </>
        )}
      </section>
      {selfHosted && <RuntimeSteps platformUrl={p.origin} provider={overview.llm.provider} model={overview.llm.model} tokens={p.tokens} />}
    </>
  );
};

export const TryPage = (p: { initial?: Overview | null | undefined }) => {
  const { loading, overview } = useOverview(p.initial);
  if (loading) return <p class="muted">Loading…</p>;
  if (!overview) return <NoBotYet />;
  if (!overview.bot.isActive) {
    return <Alert kind="info">Your bot is switched off. Switch it on in the Overview to try it.</Alert>;
  }
  return (
    <ChatPanel
      botId={overview.bot.id}
      botName={overview.bot.name}
      provider={overview.llm.provider ?? 'openai'}
      suggestedQuestions={overview.bot.suggestedQuestions}
      loadingMessages={overview.bot.loadingMessages}
      transcriptKey={`careerbot:transcript:try:${overview.bot.id}`}
    />
  );
};
