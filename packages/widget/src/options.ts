/** The options of the self-hosted widget: the types its users read. */
import type { Personality } from '@careerbot/prompt';
import type { Turn } from './chat-widget.ts';

export type { Personality };

export interface SelfHostedOptions {
  runtimeUrl?: undefined;
  name: string;
  headline?: string | null;
  personality?: Personality;
  /** `#rrggbb` */
  themeColor?: string;
  /** Everything the bot knows about your career. */
  context: string;
  suggestedQuestions?: string[];
  loadingMessages?: string[];
  /** Offer the visitor a short e-mail form after a few answers (needs `dashboard.token`). */
  captureLead?: boolean;
  /**
   * Calls your model from your own server; gives the reply's text, or an async iterable of its
   * pieces as your model writes them (shown as they come; Stop leaves the iteration, calling its
   * `return()`, and `signal` aborts).
   */
  sendMessage: (request: { system: string; messages: Turn[]; signal?: AbortSignal }) => Promise<string | AsyncIterable<string>> | AsyncIterable<string>;
  dashboard?: {
    /** The platform's address; defaults to the one that served the script. */
    apiUrl?: string;
    /** A bot token from the dashboard. Without it the widget makes no request to the platform. */
    token?: string;
  };
}


/**
 * The widget in front of your own runtime (`careerbot-runtime`): the runtime holds the provider
 * key, the bot token and the career context, so the page gives none of them.
 */
export interface RuntimeOptions {
  /** Your runtime's address, e.g. `https://careerbot.example.com` (its /config, /chat and /lead). */
  runtimeUrl: string;
  /** Each look option given wins over the bot's configuration, which the runtime serves. */
  name?: string;
  headline?: string | null;
  /** `#rrggbb` */
  themeColor?: string;
  suggestedQuestions?: string[];
  loadingMessages?: string[];
  /** Offer the visitor a short e-mail form after a few answers; the runtime forwards it. */
  captureLead?: boolean;
  context?: never;
  sendMessage?: never;
  dashboard?: never;
}

export type MountOptions = SelfHostedOptions | RuntimeOptions;
