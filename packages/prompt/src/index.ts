/**
 * What every chat surface (the platform, the widgets, the self-hosted runtime) must compute the
 * same way: the system prompt a bot answers under, and the part of it a reply may never repeat.
 */
export {
  buildSystemPrompt,
  instructionsPart,
  PERSONALITIES,
  SYSTEM_PROMPT_RULES,
  type Personality,
  type PromptBot,
} from './system-prompt.ts';
