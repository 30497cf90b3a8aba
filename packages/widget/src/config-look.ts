/** The bot's public configuration (from the platform or a runtime) as the widget's look. */
import type { Look } from './chat-widget.ts';
import { own, text } from './json-fields.ts';

/** What the page's own options say about the look: each one given wins over the configuration. */
export interface LookOptions {
  name?: string;
  headline?: string | null;
  themeColor?: string;
  suggestedQuestions?: string[];
  loadingMessages?: string[];
}

/** The look the page's options give, before any configuration arrives. */
export const lookFromOptions = (options: LookOptions, name: string): Look => ({
  name,
  headline: options.headline ?? null,
  themeColor: options.themeColor ?? null,
  suggestedQuestions: options.suggestedQuestions ?? [],
  loadingMessages: options.loadingMessages ?? [],
});

/** `config`'s look, filling what `options` leave out; the avatar's address resolved against `base`. */
export const lookFromConfig = (config: unknown, options: LookOptions, base: string | undefined): Partial<Look> => {
  const list = (key: string) => {
    const value = own(config, key);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
  };
  const image = text(config, 'image');
  const name = options.name?.trim() || text(config, 'name');
  return {
    ...(name ? { name } : {}),
    themeColor: options.themeColor ?? text(config, 'themeColor'),
    loadingMessages: options.loadingMessages?.length ? options.loadingMessages : (list('loadingMessages') ?? []),
    headline: options.headline ?? text(config, 'headline'),
    suggestedQuestions: options.suggestedQuestions?.length ? options.suggestedQuestions : (list('suggestedQuestions') ?? []),
    avatarUrl: image ? new URL(image, base).toString() : null,
  };
};
