/** One answer, as a check of it sees it. */
export interface Answer {
  method: string;
  /** The request path, without the query string. */
  path: string;
  status: number;
  header: (name: string) => string | null;
  /** The raw body, when one was sent. */
  body: string | undefined;
}

/** What is wrong with an answer: null or an empty list when nothing is. */
export type AnswerCheck = (answer: Answer) => string[] | null | undefined;

/** A fetch wrapper that keeps cookies, like a browser or `curl -b -c`. */
export class HttpClient {
  /**
   * Every JSON answer any client receives goes through this check when one is set: the
   * tests set it to the OpenAPI document's (test/support/openapi-setup.ts), so services in
   * another process (behind nginx, the cluster) are checked too.
   */
  static answerCheck: AnswerCheck | undefined;

  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(
    method: string,
    path: string,
    options: { json?: unknown; form?: Record<string, string>; body?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0 && !('cookie' in headers)) headers.cookie = this.cookieHeader();
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    this.checkAgainstDocument(method, path, response, text);
    return { status: response.status, headers: response.headers, json, text };
  }

  /** A JSON answer must pass the answer check, when one is set. */
  private checkAgainstDocument(method: string, path: string, response: Response, text: string) {
    if (!HttpClient.answerCheck || !/^application\/json\b/.test(response.headers.get('content-type') ?? '')) return;
    const problems = HttpClient.answerCheck({
      method,
      path: new URL(path, this.baseUrl).pathname,
      status: response.status,
      header: (name) => response.headers.get(name),
      body: text,
    });
    if (problems?.length) throw new Error(`an answer that differs from the OpenAPI document:\n${problems.join('\n')}`);
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, { headers });
  }

  post(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, { json, headers });
  }

  patch(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request('PATCH', path, { json, headers });
  }

  delete(path: string, headers?: Record<string, string>) {
    return this.request('DELETE', path, { headers });
  }
}

export const uniqueName = (prefix = 'user') => `${prefix}${Math.random().toString(36).slice(2, 10)}`;

/** Registers and signs in a fresh account; returns the signed-in client. */
export const signedInClient = async (baseUrl: string, name = uniqueName()) => {
  const client = new HttpClient(baseUrl);
  const password = 'correct horse battery';
  const email = `${name}@example.com`;
  const registered = await client.post('/api/auth/register', { username: name, email, password });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  const { json: csrf } = await client.get('/api/auth/csrf');
  const signedIn = await client.post('/api/auth/callback/credentials', { csrfToken: csrf.csrfToken, email, password });
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status} ${signedIn.text}`);
  return { client, userId: registered.json.user.id as string, email, username: name, password };
};

export const validBot = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  headline: 'Analytical engine programmer',
  personality: 'professional',
  contextText: 'Ada wrote the first published algorithm intended for a machine. She worked with Charles Babbage.',
  suggestedQuestions: ['What did Ada build?', 'Who did she work with?'],
  llmProvider: 'openai',
  ...overrides,
});
