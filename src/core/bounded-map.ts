/**
 * Sets `key` to `value` as the newest entry of `map`, then forgets the oldest entries beyond `max`
 * (a Map keeps insertion order): a cache that can never grow past its bound.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) return;
    map.delete(oldest);
  }
}
