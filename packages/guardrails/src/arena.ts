/**
 * Typed-array memory reused from one call to the next. A synchronous pass takes the slices it needs
 * and the next pass starts by resetting the arena, so steady work allocates no array memory and
 * leaves the garbage collector nothing to do. When a pass needs more than the arena holds, a larger
 * buffer replaces it; slices already taken keep the old one until they are dropped.
 */
export class Arena<T extends Int32Array | Uint8Array> {
  private buffer: T;
  private used = 0;

  constructor(
    private readonly allocate: (length: number) => T,
    initialLength: number,
  ) {
    this.buffer = allocate(initialLength);
  }

  /** A zero-filled slice of `length` elements, valid until the next reset. */
  take(length: number): T {
    return this.takeUnfilled(length).fill(0) as T;
  }

  /**
   * A slice of `length` elements holding whatever an earlier pass left there, valid until the next
   * reset: for a pass that writes each element before it reads it, and need not pay for the zeros.
   */
  takeUnfilled(length: number): T {
    if (this.used + length > this.buffer.length) {
      this.buffer = this.allocate(Math.max(2 * this.buffer.length, 2 * length));
      this.used = 0;
    }
    const slice = this.buffer.subarray(this.used, this.used + length) as T;
    this.used += length;
    return slice;
  }

  /** Frees every slice at once: only call it when no slice taken so far is still in use. */
  reset(): void {
    this.used = 0;
  }
}
