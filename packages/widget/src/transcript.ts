/** A conversation as a tab keeps it, so that a reload finds it again: the widgets' and the platform's pages'. */

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** How a reply that did not finish ended: the visitor's Stop, or the provider's failure midway. */
export type ReplyEnding = 'stopped' | 'interrupted';

export interface KeptTurn extends Turn {
  ending?: ReplyEnding;
}

const isKeptTurn = (turn: unknown): turn is KeptTurn => {
  if (typeof turn !== 'object' || turn === null) return false;
  const { role, content, ending } = turn as Record<string, unknown>;
  return (role === 'user' || role === 'assistant') && typeof content === 'string' && (ending === undefined || ending === 'stopped' || ending === 'interrupted');
};

/** A saved transcript, trusted only as far as its shape: anything else starts afresh. */
export const parseTranscript = (saved: string | null): KeptTurn[] => {
  try {
    const parsed: unknown = JSON.parse(saved ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(isKeptTurn).map(({ role, content, ending }) => (ending ? { role, content, ending } : { role, content }));
  } catch {
    return [];
  }
};
