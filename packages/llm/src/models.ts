/** The model each provider answers with when the owner names none; Azure has none: its model is the owner's deployment. */
export const DEFAULT_MODELS = {
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-4o-mini',
  google: 'gemini-2.5-flash',
} as const satisfies Record<'anthropic' | 'openai' | 'google', string>;
