/**
 * The rules, one file per block reason, and the verdict they reach on a message's scans. When
 * several reasons match, the first in BLOCK_REASONS wins: what the attacker wants before how they ask.
 */
import { BLOCK_REASONS, type BlockReason, type MessageVerdict } from '../block-reasons.ts';
import type { Scan } from '../scan.ts';
import { asksForSecret } from './credential-probe.ts';
import { isJailbreak } from './jailbreak.ts';
import { injectsInstructions } from './prompt-injection.ts';
import { overridesRole } from './role-override.ts';
import { asksForOwnPrompt } from './system-prompt-extraction.ts';

const RULES: Record<BlockReason, (scan: Scan) => boolean> = {
  credential_probe: asksForSecret,
  system_prompt_extraction: asksForOwnPrompt,
  jailbreak: isJailbreak,
  role_override: overridesRole,
  prompt_injection: injectsInstructions,
};

/** What the rules find in a message they are sure of, from the scans of its readings. */
export function ruleVerdict(scans: readonly Scan[]): MessageVerdict {
  for (const reason of BLOCK_REASONS) {
    if (scans.some(RULES[reason])) return { blocked: true, reason };
  }
  return { blocked: false };
}
