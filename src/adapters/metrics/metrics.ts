import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import { bearerCredentials } from '../bearer.ts';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LlmGateway, LlmRequest, LlmResponse, LlmStreamResponse, LlmTextStream, Mailer, MailMessage } from '../../application/ports.ts';

/**
 * What an operator watches, in the Prometheus text format (prom-client). Labels carry only
 * fixed vocabularies and route templates: never a key, a token, an e-mail address, a bot id
 * or any text of a bot or a visitor.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'careerbot_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: 'careerbot_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly providerCalls = new Counter({
    name: 'careerbot_provider_calls_total',
    help: 'LLM provider calls by provider and outcome (ok, invalid_llm_key, provider_rate_limit, provider_unavailable, timeout, missing_llm_key, aborted: a streamed reply the visitor left)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly providerCallsByPayer = new Counter({
    name: 'careerbot_provider_calls_by_payer_total',
    help: 'LLM provider calls by provider and whose key paid: owner (the bot owner’s stored key) or visitor',
    labelNames: ['provider', 'payer'] as const,
    registers: [this.registry],
  });
  readonly providerSeconds = new Histogram({
    name: 'careerbot_provider_call_duration_seconds',
    help: 'LLM provider call latency by provider and outcome',
    labelNames: ['provider', 'outcome'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    registers: [this.registry],
  });
  readonly rateLimitRefusals = new Counter({
    name: 'careerbot_rate_limit_refusals_total',
    help: 'Requests our own limits refused, by surface (route template) and scope (short, long, window)',
    labelNames: ['surface', 'scope'] as const,
    registers: [this.registry],
  });
  readonly earlyStarts = new Counter({
    name: 'careerbot_chat_early_starts_total',
    help: 'Streamed chats whose provider call started while their admission was on its way: adopted, or discarded (aborted unread: the admission refused, or the bot had changed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly blockedMessages = new Counter({
    name: 'careerbot_blocked_messages_total',
    help: 'Visitor messages the input filter blocked, by category',
    labelNames: ['category'] as const,
    registers: [this.registry],
  });
  readonly leadEmails = new Counter({
    name: 'careerbot_lead_emails_total',
    help: 'Lead e-mails to owners, by result (sent, failed)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  constructor(pool: () => { total: number; idle: number; waiting: number }) {
    new Gauge({
      name: 'careerbot_db_pool_connections',
      help: 'The PostgreSQL pool: connections open (total), idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const now = pool();
        this.set({ state: 'total' }, now.total);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'careerbot_' });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }
}

export interface MetricsSource {
  contentType: string;
  text(): Promise<string>;
}

/**
 * Under the cluster module: each worker offers its registry to the primary, which sums
 * them for one scrape (prom-client's AggregatorRegistry).
 */
export const offerToPrimary = (metrics: ServiceMetrics) => {
  // Constructing one installs the worker's answer to the primary's requests.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([metrics.registry]);
};

export const clusterMetrics = (): MetricsSource => {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, text: () => aggregator.clusterMetrics() };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The route template of a request: `/api/chat/:botId`, never the id itself. */
const routeOf = (req: { baseUrl: string; route?: { path?: unknown }; path: string }): string => {
  if (req.route && typeof req.route.path === 'string') {
    // A router mounted on a pattern (/api/bots/:botId/public) gives its match in baseUrl.
    const base = req.baseUrl
      .split('/')
      .map((segment) => (UUID.test(segment) ? ':botId' : segment))
      .join('/');
    const joined = `${base}${req.route.path === '/' ? '' : req.route.path}`;
    return joined || '/';
  }
  if (req.baseUrl.startsWith('/assets') || req.path.startsWith('/assets/')) return '/assets/*';
  if (req.baseUrl.startsWith('/widget') || req.path.startsWith('/widget/')) return '/widget/*';
  return 'unmatched';
};

/** Counts and times every request at its end, with its route template. */
export const httpMetrics =
  (metrics: ServiceMetrics): RequestHandler =>
  (req, res, next) => {
    const stop = metrics.requestSeconds.startTimer();
    res.once('close', () => {
      const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) };
      stop(labels);
      metrics.requests.inc(labels);
      // What http-errors' reply() sent, when it sent the answer.
      const body = res.locals.replyBody as { error?: unknown; scope?: unknown; reason?: unknown } | undefined;
      if (!body || typeof body !== 'object') return;
      if ((body.error === 'rate_limit' || body.error === 'rate_limited') && typeof body.scope === 'string') {
        metrics.rateLimitRefusals.inc({ surface: labels.route, scope: body.scope });
      } else if (body.error === 'TooManyRequests') {
        metrics.rateLimitRefusals.inc({ surface: labels.route, scope: 'window' });
      } else if (body.error === 'blocked' && typeof body.reason === 'string') {
        metrics.blockedMessages.inc({ category: body.reason });
      }
    });
    next();
  };

/** Each provider call counted and timed; a failure at the deadline is a `timeout`. */
export class MeteredLlmGateway implements LlmGateway {
  constructor(
    private readonly provider: string,
    private readonly inner: LlmGateway,
    private readonly metrics: ServiceMetrics,
    private readonly timeoutMs: number,
  ) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    const started = performance.now();
    const response = await this.inner.complete(request);
    const elapsed = performance.now() - started;
    const outcome = response.ok ? 'ok' : response.error === 'provider_unavailable' && elapsed >= this.timeoutMs * 0.98 ? 'timeout' : response.error;
    this.metrics.providerCalls.inc({ provider: this.provider, outcome });
    this.metrics.providerCallsByPayer.inc({ provider: this.provider, payer: request.payer ?? 'visitor' });
    this.metrics.providerSeconds.observe({ provider: this.provider, outcome }, elapsed / 1000);
    return response;
  }

  /**
   * A streamed call is counted when it ends: `ok`, `provider_unavailable` when it broke
   * mid-answer, `aborted` when the visitor left (or pressed Stop) before its end.
   */
  async stream(request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse> {
    const started = performance.now();
    const response = await this.inner.stream(request, signal);
    this.metrics.providerCallsByPayer.inc({ provider: this.provider, payer: request.payer ?? 'visitor' });
    if (!response.ok) {
      const timedOut = response.error === 'provider_unavailable' && performance.now() - started >= this.timeoutMs * 0.98;
      this.count(signal.aborted ? 'aborted' : timedOut ? 'timeout' : response.error, started);
      return response;
    }
    return { ok: true, stream: this.counted(response.stream, started, signal) };
  }

  private counted(stream: LlmTextStream, started: number, signal: AbortSignal): LlmTextStream {
    const rest = async function* (this: MeteredLlmGateway) {
      let outcome = 'aborted';
      try {
        yield* stream.rest;
        outcome = 'ok';
      } catch (error) {
        outcome = signal.aborted ? 'aborted' : 'provider_unavailable';
        throw error;
      } finally {
        this.count(outcome, started);
      }
    }.call(this);
    return { first: stream.first, rest };
  }

  private count(outcome: string, started: number): void {
    this.metrics.providerCalls.inc({ provider: this.provider, outcome });
    this.metrics.providerSeconds.observe({ provider: this.provider, outcome }, (performance.now() - started) / 1000);
  }
}

export class MeteredMailer implements Mailer {
  constructor(
    private readonly inner: Mailer,
    private readonly metrics: ServiceMetrics,
  ) {}

  async send(message: MailMessage): Promise<void> {
    try {
      await this.inner.send(message);
      this.metrics.leadEmails.inc({ result: 'sent' });
    } catch (error) {
      this.metrics.leadEmails.inc({ result: 'failed' });
      throw error;
    }
  }
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** GET /metrics on the main port, for a bearer of METRICS_TOKEN; anyone else gets the plain 404. */
export const metricsRoute =
  (metrics: ServiceMetrics, token: string | undefined): RequestHandler =>
  async (req, res, next) => {
    const credentials = bearerCredentials(req.headers.authorization);
    if (!token || credentials === null || !sameToken(credentials, token)) return next();
    res.set('Cache-Control', 'no-store').type(metrics.contentType).send(await metrics.text());
  };

/** The metrics listener of METRICS_PORT: /metrics and nothing else. */
export const startMetricsServer = async (metrics: MetricsSource, port: number, host: string): Promise<Server> => {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
};
