import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';

/** What a self-hosted widget holds: the platform address and a bot token, nothing else. */
export const widgetClient = (baseUrl: string, token: string) => {
  const auth = { authorization: `Bearer ${token}` };
  const client = new HttpClient(baseUrl);
  return {
    token,
    get: (path: string, headers: Record<string, string> = {}) => client.get(`/api/v1/bot${path}`, { ...auth, ...headers }),
    post: (path: string, json: unknown, headers: Record<string, string> = {}) =>
      client.post(`/api/v1/bot${path}`, json, { ...auth, ...headers }),
    raw: (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
      client.request(method, `/api/v1/bot${path}`, {
        body,
        headers: { 'content-type': 'application/json', ...auth, ...headers },
      }),
  };
};

export type WidgetClient = ReturnType<typeof widgetClient>;

/** A signed-in owner with a saved bot and a freshly minted token. */
export const ownerWithToken = async (baseUrl: string, bot: Record<string, unknown> = {}) => {
  const owner = await signedInClient(baseUrl);
  const saved = await owner.client.post('/api/bots', validBot(bot));
  if (saved.status !== 201) throw new Error(`bot save failed: ${saved.status} ${saved.text}`);
  const minted = await owner.client.post('/api/bots/tokens', { name: 'Widget' });
  if (minted.status !== 201) throw new Error(`token mint failed: ${minted.status} ${minted.text}`);
  const token = minted.json.token as string;
  return { ...owner, botId: saved.json.bot.id as string, token, tokenId: minted.json.tokenInfo.id as string, widget: widgetClient(baseUrl, token) };
};

export type OwnerWithToken = Awaited<ReturnType<typeof ownerWithToken>>;
