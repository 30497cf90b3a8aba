import { describe, expect, it } from 'vitest';
import { Arena } from '../src/arena.ts';

describe('Arena', () => {
  it('hands out zero-filled slices that do not overlap', () => {
    const arena = new Arena((length) => new Int32Array(length), 16);
    const a = arena.take(5);
    const b = arena.take(5);
    a.fill(7);
    expect([...b]).toEqual([0, 0, 0, 0, 0]);
    b.fill(9);
    expect([...a]).toEqual([7, 7, 7, 7, 7]);
  });

  it('reuses its memory after a reset, zeroed again', () => {
    const arena = new Arena((length) => new Uint8Array(length), 16);
    const first = arena.take(8);
    first.fill(1);
    arena.reset();
    const second = arena.take(8);
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteOffset).toBe(first.byteOffset);
    expect([...second]).toEqual(new Array(8).fill(0));
  });

  it('grows past its first size, leaving slices already taken intact', () => {
    const arena = new Arena((length) => new Int32Array(length), 4);
    const small = arena.take(3);
    small.fill(5);
    const big = arena.take(100);
    big.fill(6);
    expect(big.length).toBe(100);
    expect([...small]).toEqual([5, 5, 5]);
    arena.reset();
    expect(arena.take(100).buffer).toBe(big.buffer);
  });
});
