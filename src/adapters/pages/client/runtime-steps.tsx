import { useEffect, useState } from 'preact/hooks';
import { PROVIDER_NAMES } from '@careerbot/widget/chat-problems';
import { api, formatDate } from './api.ts';
import { CopyButton } from './dashboard-layout.tsx';
import { Field } from './fields.tsx';
import type { TokenInfo } from './tokens-page.tsx';

/**
 * A self-hosted bot's three steps (mint a token, start the runtime, paste the snippet) with
 * this bot's values filled in, and whether a runtime has used a token lately. Every value is
 * shown as text; the provider key is never asked for nor shown.
 */

export const TOKEN_PLACEHOLDER = 'paste-your-bot-token-here';
const SITE_PLACEHOLDER = 'https://your-site.example';
const RUNTIME_PLACEHOLDER = 'https://careerbot-runtime.your-site.example';
const RUNTIME_PORT = '8787';

export interface RuntimeValues {
  /** This platform's public address. */
  platformUrl: string;
  provider: string | null;
  model: string | null;
  /** The token just minted, or null for the placeholder. */
  token: string | null;
  /** The owner's site, allowed to call the runtime from a browser. */
  siteOrigin?: string;
}

/** A value as one shell word: single-quoted, whatever it holds. */
const shellWord = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Where the platform serves the runtime's command as one file for Node. */
export const RUNTIME_FILE = 'careerbot-runtime.mjs';

/**
 * The commands that fetch the runtime from this platform and start it, every variable filled in
 * but the provider key. It needs Node.js 20 and nothing installed.
 */
export const runtimeCommand = (v: RuntimeValues): string => {
  const variables: [string, string][] = [
    ['CAREERBOT_URL', v.platformUrl],
    ['CAREERBOT_TOKEN', v.token ?? TOKEN_PLACEHOLDER],
    ['LLM_PROVIDER', v.provider ?? 'openai'],
    ...(v.model ? ([['LLM_MODEL', v.model]] as [string, string][]) : []),
    ...(v.provider === 'azure' ? ([['AZURE_OPENAI_ENDPOINT', 'https://your-resource.openai.azure.com']] as [string, string][]) : []),
    ['ALLOWED_ORIGINS', v.siteOrigin?.trim() || SITE_PLACEHOLDER],
    ['PORT', RUNTIME_PORT],
  ];
  return [
    `curl -fsSL ${shellWord(`${v.platformUrl}/runtime/${RUNTIME_FILE}`)} -o ${RUNTIME_FILE}`,
    ...variables.map(([name, value]) => `${name}=${shellWord(value)} \\`),
    `node ${RUNTIME_FILE}`,
  ].join('\n');
};

/** The snippet for the owner's page: the platform's widget script, mounted on the runtime. */
export const runtimeSnippet = (platformUrl: string, runtimeUrl: string): string => {
  // A JSON string literal, with `<` escaped so no address can close the script element.
  const address = JSON.stringify(runtimeUrl.trim() || RUNTIME_PLACEHOLDER).replace(/</g, '\\u003c');
  return [
    `<script src="${platformUrl}/widget/careerbot-widget.js"></script>`,
    '<script>',
    `  CareerBotWidget.mount(document.body, { runtimeUrl: ${address}, captureLead: true });`,
    '</script>',
  ].join('\n');
};

const usable = (token: TokenInfo) => !token.revokedAt && (!token.expiresAt || Date.parse(token.expiresAt) > Date.now());

/** The usable token a runtime used last, if any did. */
const lastUsed = (tokens: TokenInfo[]): TokenInfo | null =>
  tokens.filter((token) => usable(token) && token.lastUsedAt).sort((a, b) => Date.parse(b.lastUsedAt!) - Date.parse(a.lastUsedAt!))[0] ?? null;

/** The tokens the server rendered the page with (undefined: fetched after loading). */
const useTokens = (initial: TokenInfo[] | undefined) => {
  const [tokens, setTokens] = useState<TokenInfo[] | null>(initial ?? null);
  useEffect(() => {
    if (initial !== undefined) return;
    void api<{ tokens: TokenInfo[] }>('/api/bots/tokens').then((answer) => answer.ok && setTokens(answer.body.tokens));
  }, []);
  return tokens;
};

export const RuntimeCommand = (p: RuntimeValues) => {
  const command = runtimeCommand(p);
  const provider = PROVIDER_NAMES[p.provider ?? 'openai'] ?? p.provider;
  return (
    <>
      <pre class="snippet" aria-label="Command that starts the runtime">
        <code>{command}</code>
      </pre>
      <CopyButton text={command} label="Copy command" />
      <p class="hint">
        It needs Node.js 20 or later on that server, and nothing else. Also set <code>LLM_API_KEY</code> to your {provider} key in that server’s
        environment: it stays on your server and is never shown here.
        {p.token ? '' : ` Replace ${TOKEN_PLACEHOLDER} with your token.`}
      </p>
    </>
  );
};

export const RuntimeSteps = (p: { platformUrl: string; provider: string | null; model: string | null; tokens?: TokenInfo[] | undefined }) => {
  const tokens = useTokens(p.tokens);
  const [site, setSite] = useState('');
  const [runtimeUrl, setRuntimeUrl] = useState('');
  const snippet = runtimeSnippet(p.platformUrl, runtimeUrl);
  const active = tokens?.filter(usable) ?? [];
  const used = tokens ? lastUsed(tokens) : null;
  return (
    <section class="card" aria-labelledby="runtime-steps">
      <h2 id="runtime-steps">Run your own runtime</h2>
      <p>Your bot is self-hosted: a runtime on your server answers with your provider key, and the transcripts and leads come back here.</p>
      <p role="status" aria-label="Your runtime" class="runtime-status">
        {tokens === null
          ? 'Looking for your runtime…'
          : used
            ? `A runtime last used the token “${used.name}” on ${formatDate(used.lastUsedAt)}.`
            : 'No runtime has used a token yet.'}
      </p>
      <ol class="steps">
        <li>
          <h3>Create a token</h3>
          <p>
            {active.length ? `You have ${active.length} active token${active.length === 1 ? '' : 's'}. ` : 'You have no active token yet. '}
            <a href="/dashboard/tokens">Create a token for your runtime</a>; it is shown once.
          </p>
        </li>
        <li>
          <h3>Start the runtime</h3>
          <Field label="Your site’s address" hint="The site your widget is on: only it may call the runtime from a browser (ALLOWED_ORIGINS).">
            {(a11y) => <input {...a11y} type="url" placeholder={SITE_PLACEHOLDER} value={site} onInput={(e) => setSite(e.currentTarget.value)} />}
          </Field>
          <RuntimeCommand platformUrl={p.platformUrl} provider={p.provider} model={p.model} token={null} siteOrigin={site} />
        </li>
        <li>
          <h3>Paste the snippet</h3>
          <Field label="Your runtime’s address" hint="Where your visitors’ browsers reach the runtime.">
            {(a11y) => <input {...a11y} type="url" placeholder={RUNTIME_PLACEHOLDER} value={runtimeUrl} onInput={(e) => setRuntimeUrl(e.currentTarget.value)} />}
          </Field>
          <pre class="snippet" aria-label="Snippet for your site">
            <code>{snippet}</code>
          </pre>
          <CopyButton text={snippet} label="Copy snippet" />
        </li>
      </ol>
    </section>
  );
};
