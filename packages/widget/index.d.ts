/** Types of the self-hosted Career Bot widget (see README.md). */
export type Personality = 'professional' | 'creative' | 'enthusiastic';

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export interface SelfHostedOptions {
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
  /** Calls your model from your own server; resolves with the reply's text. */
  sendMessage: (request: { system: string; messages: Turn[] }) => Promise<string>;
  dashboard?: {
    /** The platform's address; defaults to the one that served the script. */
    apiUrl?: string;
    /** A bot token from the dashboard. Without it the widget makes no request to the platform. */
    token?: string;
  };
}

export interface MountedWidget {
  open(): void;
  close(): void;
  destroy(): void;
}

/** Shows the launcher and the chat dialog; `element` is where the widget's element goes (default: body). */
export declare function mount(element: HTMLElement | null | undefined, options: SelfHostedOptions): MountedWidget;

/** The system prompt a managed bot uses, built from your own fields: the same rules, self-hosted. */
export declare function buildSystemPrompt(bot: { name: string; headline: string | null; personality: Personality; contextText: string }): string;

export default mount;
