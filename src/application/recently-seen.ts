/**
 * Makes room in a map kept least recently seen first (each update deletes and re-inserts its key):
 * from the front, forgets entries while they are stale or the map holds `max` or more, skipping
 * those `pinned` keeps (still in use). Stops at the first entry that is fresh once there is room,
 * so a sweep costs only what it forgets.
 */
export function forgetFromFront<K, V>(map: Map<K, V>, options: { stale: (entry: V) => boolean; max: number; pinned?: (entry: V) => boolean }): void {
  for (const [key, entry] of map) {
    if (!options.stale(entry) && map.size < options.max) return;
    if (!options.pinned?.(entry)) map.delete(key);
  }
}
