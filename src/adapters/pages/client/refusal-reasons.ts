/** The message filter's reasons, in the owner's words: a short name, and what it means for them. */
export const REFUSAL_REASONS: Record<string, { label: string; meaning: string }> = {
  credential_probe: {
    label: 'Asked for keys, passwords or other secrets',
    meaning: 'The message asked the bot for an API key, a password, a token or another secret. A job description about security or secrets management can be refused this way by mistake.',
  },
  system_prompt_extraction: {
    label: 'Asked for the bot’s hidden instructions',
    meaning: 'The message asked the bot to show or repeat the instructions it works from. A recruiter asking the bot to repeat or sum up what it said can be refused this way by mistake.',
  },
  jailbreak: {
    label: 'Tried to switch off the bot’s rules',
    meaning: 'The message tried to make the bot drop its rules (a “developer mode”, “no restrictions”).',
  },
  role_override: {
    label: 'Tried to make the bot play someone else',
    meaning: 'The message told the bot to become someone other than your career assistant. An interview role-play or “act as the technical lead” in a job description can be refused this way by mistake.',
  },
  prompt_injection: {
    label: 'Tried to give the bot new instructions',
    meaning: 'The message carried orders meant to replace yours (“ignore your previous instructions”). Instructions relayed from a client, or a recruiter correcting an earlier message, can be refused this way by mistake.',
  },
};

export const reasonLabel = (reason: string) => REFUSAL_REASONS[reason]?.label ?? reason;
