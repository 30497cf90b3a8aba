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

export const RULES: Record<BlockReason, (scan: Scan) => boolean> = {
  credential_probe: asksForSecret,
  system_prompt_extraction: asksForOwnPrompt,
  jailbreak: isJailbreak,
  role_override: overridesRole,
  prompt_injection: injectsInstructions,
};

/** A reason whose rule matches a reading, and which reading (0: the message itself). */
export interface RuleMatch {
  readonly reason: BlockReason;
  readonly reading: number;
}

/** The readings of a message (see MessageReading), each scanned when a rule first reads it. */
export interface ScannedReadings {
  /** A reading's text, or undefined past the last. */
  text(reading: number): string | undefined;
  scan(reading: number): Scan;
}

/** Every reason whose rule matches a reading, in order of precedence, with the readings it matches. */
export function* ruleMatches(readings: ScannedReadings): Generator<RuleMatch> {
  for (const reason of BLOCK_REASONS) {
    for (let reading = 0; readings.text(reading) !== undefined; reading += 1) {
      if (RULES[reason](readings.scan(reading))) yield { reason, reading };
    }
  }
}

/** The rules' verdict alone, as if no passage were reviewed. */
export function ruleVerdict(readings: ScannedReadings): MessageVerdict {
  for (const match of ruleMatches(readings)) return { blocked: true, reason: match.reason };
  return { blocked: false };
}
