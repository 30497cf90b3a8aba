/**
 * Every answer of POST /api/chat/{botId} that is not a reply, in words a visitor understands.
 * The public page and the managed widget both say these.
 */
export interface ErrorBody {
  error?: string;
  reason?: string;
  scope?: string;
  resetAt?: number;
}

export const PROVIDER_NAMES: Record<string, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  google: 'Google Gemini',
  azure: 'Azure OpenAI',
};

const BLOCK_WORDS: Record<string, string> = {
  credential_probe: 'it asks for keys, passwords or other secrets',
  system_prompt_extraction: 'it asks for the bot’s hidden instructions',
  jailbreak: 'it tries to switch off the bot’s rules',
  role_override: 'it tries to make the bot play someone else',
  prompt_injection: 'it tries to give the bot new instructions',
};

export interface ChatProblem {
  text: string;
  /** Offer to send the same message again. */
  retry?: boolean;
  /** The key was refused or missing: ask for it again. */
  askKey?: boolean;
}

/** A reply the provider stopped writing partway: its words so far stay, and the question may be asked again. */
export const REPLY_CUT_OFF: ChatProblem = { text: 'The provider stopped partway through this reply. Retry to ask it again.', retry: true };

/** When a limit lets the visitor ask again: in seconds when it is that close, else the time of day without seconds. */
const whenAgain = (resetAt: number): string => {
  const seconds = Math.ceil((resetAt - Date.now()) / 1000);
  if (!Number.isFinite(seconds)) return 'later';
  if (seconds <= 90) return `in ${Math.max(seconds, 1)} second${seconds > 1 ? 's' : ''}`;
  return `at ${new Date(resetAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}`;
};

export const chatProblem = (status: number, body: ErrorBody | null): ChatProblem => {
  switch (body?.error) {
    case 'blocked':
      return { text: `Your message was not sent to the bot: ${BLOCK_WORDS[body.reason ?? ''] ?? 'it looks like an attack on the bot'}. Please rephrase it.` };
    case 'rate_limit': {
      const window = body.scope === 'long' ? 'today’s' : 'this minute’s';
      return { text: `This bot has answered ${window} share of messages. You can ask again ${whenAgain(Number(body.resetAt))}.` };
    }
    case 'daily_limit_reached':
      return { text: 'This bot has reached its limit of answers for today. Please come back tomorrow.' };
    case 'missing_llm_key':
      return { text: 'Enter your API key (and, for Azure, a valid endpoint) to chat.', askKey: true };
    case 'invalid_llm_key':
      return { text: 'The provider refused your API key. Please enter it again.', askKey: true };
    case 'provider_rate_limit':
      return { text: 'The provider is rate-limiting your key right now. Wait a moment, then retry.', retry: true };
    case 'provider_unavailable':
      return { text: 'The provider did not answer. Please retry.', retry: true };
    case 'bot_not_found':
      return { text: 'This bot is not available.' };
    case 'validation_failed':
      return { text: 'Your message must be between 1 and 8,000 characters.' };
    case 'request_too_large':
      return { text: 'Your message is too long.' };
    default:
      return { text: `Something went wrong (status ${status}). Please retry.`, retry: true };
  }
};
