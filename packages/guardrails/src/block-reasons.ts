/**
 * What the visitor-message check can find, in order of precedence: when several match, the first
 * wins (what the attacker wants before how they ask).
 */
export const BLOCK_REASONS = [
  'credential_probe',
  'system_prompt_extraction',
  'jailbreak',
  'role_override',
  'prompt_injection',
] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];
export type MessageVerdict = { blocked: false } | { blocked: true; reason: BlockReason };
