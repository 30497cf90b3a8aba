import { describe, expect, it } from 'vitest';
import { alreadyStoredCount, messagesToAppend } from '../../src/domain/transcript.ts';
import type { ChatMessage } from '../../src/domain/types.ts';

const u = (content: string): ChatMessage => ({ role: 'user', content });
const a = (content: string): ChatMessage => ({ role: 'assistant', content });

describe('transcript coalescing: the largest k such that the stored transcript ends with the first k incoming messages', () => {
  it('appends everything to an empty conversation', () => {
    expect(messagesToAppend([], [u('Hi'), a('Hello')])).toEqual([u('Hi'), a('Hello')]);
  });

  it('appends only the new tail when the widget resends its whole history', () => {
    const stored = [u('Hi'), a('Hello'), u('Rust?')];
    expect(messagesToAppend(stored, [...stored, a('Yes, daily.'), u('Thanks')])).toEqual([a('Yes, daily.'), u('Thanks')]);
  });

  it('appends nothing when a save is retried as it was', () => {
    const stored = [u('Hi'), a('Hello')];
    expect(alreadyStoredCount(stored, [u('Hi'), a('Hello')])).toBe(2);
    expect(messagesToAppend(stored, [u('Hi'), a('Hello')])).toEqual([]);
  });

  it('appends everything when the widget sends only the new messages', () => {
    expect(messagesToAppend([u('Hi'), a('Hello')], [u('Rust?'), a('Yes.')])).toEqual([u('Rust?'), a('Yes.')]);
  });

  it('recognises a partial overlap: the stored end is the start of the incoming batch', () => {
    expect(messagesToAppend([u('one'), a('two'), u('three')], [a('two'), u('three'), a('four')])).toEqual([a('four')]);
  });

  it('takes the largest overlap when several fit', () => {
    expect(alreadyStoredCount([u('x'), a('y'), u('x'), a('y')], [u('x'), a('y'), u('x'), a('y'), u('z')])).toBe(4);
    expect(messagesToAppend([u('ok'), u('ok')], [u('ok'), u('ok'), u('ok')])).toEqual([u('ok')]);
    expect(messagesToAppend([u('ok')], [u('ok'), u('ok')])).toEqual([u('ok')]);
  });

  it('needs the role to match as well as the content', () => {
    expect(messagesToAppend([u('Hello')], [a('Hello')])).toEqual([a('Hello')]);
  });

  it('does not match a stored message that is not at the end', () => {
    expect(messagesToAppend([u('Hi'), a('Hello')], [u('Hi'), u('Again')])).toEqual([u('Hi'), u('Again')]);
  });
});
