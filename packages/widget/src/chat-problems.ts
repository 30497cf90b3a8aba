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

export const chatProblem = (status: number, body: ErrorBody | null): ChatProblem => {
  switch (body?.error) {
    case 'blocked':
      return { text: `Your message was not sent to the bot: ${BLOCK_WORDS[body.reason ?? ''] ?? 'it looks like an attack on the bot'}. Please rephrase it.` };
    case 'rate_limit': {
      const at = new Date(Number(body.resetAt)).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
      const window = body.scope === 'long' ? 'today’s' : 'this minute’s';
      return { text: `This bot has answered ${window} share of messages. You can ask again at ${at}.` };
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
