import { emailAddress, boundedText, uuidText } from '@careerbot/chat-protocol';
import { createMessageCheck, createReplyCleaner } from '@careerbot/guardrails';
import { SCORER_MODEL } from '@careerbot/guardrails/model';
import { AnthropicLlmGateway, AzureOpenAiLlmGateway, DEFAULT_MODELS, GoogleLlmGateway, OpenAiLlmGateway, type Fetch, type LlmGateway } from '@careerbot/llm';
import { z } from 'zod';
import { BotSource, type BotConfig } from './bot-source.ts';
import { handleChat } from './chat.ts';
import type { RuntimeConfig } from './config.ts';
import { Cors } from './cors.ts';
import { Deliveries } from './deliveries.ts';
import type { RuntimeReply, RuntimeRequest } from './exchange.ts';
import { fetchExchange } from './fetch-exchange.ts';
import { jsonLineLogger, type RuntimeLogger } from './logger.ts';
import { Outbox } from './outbox.ts';
import { PlatformClient } from './platform-client.ts';
import { errorResponse, json, readJsonBody, REFUSALS } from './responses.ts';
import { VisitorLimits } from './visitor-limits.ts';

export interface RuntimeOptions {
  config: RuntimeConfig;
  /** How the runtime reaches the platform; the global fetch by default. */
  fetch?: Fetch;
  /** What the provider SDKs send their unstreamed calls through; the SDKs' own (the global fetch) by default. */
  providerFetch?: Fetch;
  /** What they stream through (a fetch that answers at the head, its body as it arrives); the SDKs' own by default. */
  providerStreamFetch?: Fetch;
  log?: RuntimeLogger;
  now?: () => number;
  /** In [0, 1): the retry jitter. */
  random?: () => number;
}

/** Who is asking, as far as the server around the handler knows: the socket's address. */
export interface RequestContext {
  clientAddress?: string;
}

export interface Runtime {
  /** The handler: a standard Request in, a Response out (a serverless or edge function). */
  fetch(request: Request, context?: RequestContext): Promise<Response>;
  /** The same handler on the runtime's own view of a request, for a server that adapts its own objects (the Node server). */
  handle(request: RuntimeRequest): Promise<RuntimeReply>;
  /** Reads the bot's config and knowledge, so the first visitor finds them cached. */
  warm(): Promise<void>;
  /** New requests get 503; resolves once those in flight have ended and the queue had one last attempt. */
  drain(timeoutMs?: number): Promise<void>;
  /** Transcript saves and leads waiting for the platform. */
  readonly queued: number;
}

const LEAD_BODY_LIMIT = 16_384;

const leadRequest = z.object(
  {
    sessionId: uuidText(),
    email: emailAddress,
    contextSummary: boundedText(0, 2_000)
      .nullable()
      .optional()
      .transform((value) => value || null),
  },
  { error: 'Request body must be a JSON object' },
);

const gatewayFor = (config: RuntimeConfig, transport: { fetch?: Fetch; streamFetch?: Fetch }): LlmGateway => {
  const common = { timeoutMs: config.LLM_TIMEOUT_MS, ...transport };
  switch (config.LLM_PROVIDER) {
    case 'anthropic':
      return new AnthropicLlmGateway({ ...common, baseURL: config.ANTHROPIC_BASE_URL });
    case 'openai':
      return new OpenAiLlmGateway({ ...common, baseURL: config.OPENAI_BASE_URL });
    case 'google':
      return new GoogleLlmGateway({ timeoutMs: config.LLM_TIMEOUT_MS, baseURL: config.GEMINI_BASE_URL });
    case 'azure':
      // The owner names their own endpoint: it is the one host allowed.
      return new AzureOpenAiLlmGateway({ ...common, allowedHosts: [new URL(config.AZURE_OPENAI_ENDPOINT!).hostname] });
  }
};

/** What GET /config shows a browser: the bot's public face, with the avatar's absolute address. Never the context. */
const publicView = (bot: BotConfig, platformUrl: string) => ({
  id: bot.id,
  name: bot.name,
  headline: bot.headline,
  personality: bot.personality,
  themeColor: bot.themeColor,
  image: new URL(bot.image, `${platformUrl}/`).href,
  suggestedQuestions: bot.suggestedQuestions,
  loadingMessages: bot.loadingMessages,
});

/** The client's address: the socket's, or, behind `trustProxy` proxies, the one they put in X-Forwarded-For. */
const visitorAddress = (request: RuntimeRequest, trustProxy: number): string => {
  if (trustProxy > 0) {
    const forwarded = (request.header('x-forwarded-for') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const address = forwarded[forwarded.length - trustProxy] ?? forwarded[0];
    if (address) return address;
  }
  return request.clientAddress ?? 'unknown';
};

export const createRuntime = (options: RuntimeOptions): Runtime => {
  const { config } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? jsonLineLogger(config.LOG_LEVEL, [config.LLM_API_KEY, config.CAREERBOT_TOKEN, config.EMBEDDING_API_KEY ?? '']);
  const platform = new PlatformClient(config.CAREERBOT_URL, config.CAREERBOT_TOKEN, options.fetch ?? ((input, init) => fetch(input, init)), log);
  const outbox = new Outbox({
    limit: config.QUEUE_LIMIT,
    now,
    random: options.random ?? Math.random,
    onDropped: (key) => log('warn', 'the platform refused queued work', { kind: key.split(':')[0]! }),
  });
  const deliveries = new Deliveries(platform, outbox, log);
  const bot = new BotSource(platform, config.EMBEDDING_API_KEY, config.CACHE_SECONDS * 1000, now, (reason) =>
    log('warn', 'knowledge: retrieval failed, the whole context stands in', { reason }),
  );
  const cors = new Cors(config.ALLOWED_ORIGINS);
  const { checkVisitorMessage } = createMessageCheck(SCORER_MODEL);
  const chatDeps = {
    bot,
    limits: new VisitorLimits(config.MESSAGES_PER_MINUTE_PER_VISITOR, config.MESSAGES_PER_DAY, now),
    checkMessage: checkVisitorMessage,
    cleaner: createReplyCleaner(),
    gateway: gatewayFor(config, { fetch: options.providerFetch, streamFetch: options.providerStreamFetch }),
    llm: {
      model: config.LLM_MODEL ?? (config.LLM_PROVIDER === 'azure' ? '' : DEFAULT_MODELS[config.LLM_PROVIDER]),
      apiKey: config.LLM_API_KEY,
      azureEndpoint: config.AZURE_OPENAI_ENDPOINT,
    },
    deliveries,
    log,
    now,
  };

  let inFlight = 0;
  let draining = false;
  let idle: (() => void) | null = null;
  const ended = () => {
    inFlight -= 1;
    if (inFlight === 0) idle?.();
  };

  const route = async (request: RuntimeRequest): Promise<RuntimeReply> => {
    const pathname = request.path;
    const origin = request.header('origin');
    if (cors.judge(origin) === 'refused') return errorResponse(REFUSALS.originNotAllowed);
    const corsHeaders = cors.headers(origin, request.method === 'OPTIONS');
    if (request.method === 'OPTIONS') return { status: 204, headers: corsHeaders, body: null };
    const answer = (reply: { status: number; body: unknown; headers?: Record<string, string> }) =>
      json(reply.status, reply.body, { ...reply.headers, ...corsHeaders });

    if (request.method === 'GET' && pathname === '/healthz') return json(200, { status: 'ok', queued: outbox.size }, corsHeaders);
    if (request.method === 'GET' && pathname === '/config') {
      const read = await bot.bot();
      if (read.kind === 'gone') return answer(REFUSALS.botNotFound);
      if (read.kind === 'unknown') return answer(REFUSALS.serviceUnavailable);
      return json(200, publicView(read.value, config.CAREERBOT_URL), corsHeaders);
    }
    if (request.method === 'POST' && pathname === '/chat') {
      return handleChat(chatDeps, request, visitorAddress(request, config.TRUST_PROXY), corsHeaders);
    }
    if (request.method === 'POST' && pathname === '/lead') {
      const body = await readJsonBody(request, leadRequest, LEAD_BODY_LIMIT);
      if (!body.ok) return answer(body.reply);
      const known = await bot.bot();
      if (known.kind === 'gone') return answer(REFUSALS.botNotFound);
      const outcome = await deliveries.captureLead(body.value);
      if (outcome.kind === 'answered') return json(outcome.status, outcome.body, corsHeaders);
      if (outcome.kind === 'gone') return answer(REFUSALS.botNotFound);
      if (outcome.kind === 'full') return answer(REFUSALS.serviceUnavailable);
      return json(202, { queued: true }, corsHeaders);
    }
    return answer(REFUSALS.notFound);
  };

  const handle = async (request: RuntimeRequest): Promise<RuntimeReply> => {
    if (draining) return errorResponse(REFUSALS.serviceUnavailable);
    inFlight += 1;
    let reply: RuntimeReply;
    try {
      reply = await route(request);
    } catch (error) {
      log('error', 'a request failed', { error: error instanceof Error ? error.name : 'unknown' });
      reply = errorResponse(REFUSALS.internalError);
    }
    // Only a streamed reply outlives this call; every other body is already whole.
    if (!('stream' in reply)) {
      ended();
      return reply;
    }
    const { stream } = reply;
    return { ...reply, stream: (sink) => stream(sink).finally(ended) };
  };

  return {
    async fetch(request, context) {
      const exchange = fetchExchange(request, context?.clientAddress);
      return exchange.toResponse(await handle(exchange.request));
    },
    handle,
    warm: () => bot.warm(),
    async drain(timeoutMs = config.LLM_TIMEOUT_MS + 15_000) {
      draining = true;
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          idle = resolve;
          setTimeout(resolve, timeoutMs).unref?.();
        });
      }
      await outbox.flush(true);
      outbox.stop();
      if (outbox.size > 0) log('error', 'stopped with work the platform did not take', { queued: outbox.size });
    },
    get queued() {
      return outbox.size;
    },
  };
};
