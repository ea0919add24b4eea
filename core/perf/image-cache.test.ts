import { describe, expect, it } from 'vitest';
import { ImageCache } from './image-cache.js';

const png = (bytes: number) => ({ etag: `"${bytes}"`, bytes: new Uint8Array(bytes) });

describe('image cache', () => {
  it('is bounded by bytes, not by count: the least recently used images go first', () => {
    const cache = new ImageCache(1_000);
    cache.set('a', png(400));
    cache.set('b', png(400));
    expect(cache.get('a')?.bytes.byteLength).toBe(400); // a is now the most recently used
    cache.set('c', png(400));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    for (let i = 0; i < 150; i++) cache.set(`small ${i}`, png(10));
    expect(cache.get('small 149')).toBeDefined();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('small 0')).toBeUndefined(); // 150 x 10 bytes do not fit in 1,000
  });

  it('replaces an entry without counting it twice, and keeps nothing larger than the budget', () => {
    const cache = new ImageCache(1_000);
    cache.set('a', png(600));
    cache.set('a', png(600));
    cache.set('b', png(400));
    expect(cache.get('a')).toBeDefined();
    cache.set('huge', png(2_000));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
  });
});
