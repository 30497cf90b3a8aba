import type { ChatMessage } from './types.ts';

const sameMessage = (a: ChatMessage, b: ChatMessage) => a.role === b.role && a.content === b.content;

/**
 * How many of the incoming messages are already stored: the largest k such that the stored
 * transcript ends with the first k incoming messages. A widget that resends its whole
 * history, or retries a save, then appends only what is new. `storedTail` needs to hold
 * only the last `incoming.length` stored messages.
 */
export const alreadyStoredCount = (storedTail: readonly ChatMessage[], incoming: readonly ChatMessage[]): number => {
  for (let k = Math.min(storedTail.length, incoming.length); k > 0; k -= 1) {
    const offset = storedTail.length - k;
    let matches = true;
    for (let i = 0; i < k && matches; i += 1) matches = sameMessage(storedTail[offset + i]!, incoming[i]!);
    if (matches) return k;
  }
  return 0;
};

/** The messages a save really appends. */
export const messagesToAppend = (storedTail: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] =>
  incoming.slice(alreadyStoredCount(storedTail, incoming));
