import { describe, expect, it } from 'vitest';
import type { Opener } from './harness.js';

/** Shared counters, for engines that have them (several processes on one database): exact, windowed. */
export function describeCounters(open: Opener): void {
  describe('shared counters', () => {
    it('counts concurrent hits of one key exactly, each count once, in one window', async (context) => {
      const { counters } = await open();
      if (!counters) return context.skip();
      const now = new Date(Date.UTC(2026, 0, 1, 12));
      const hits = await Promise.all(Array.from({ length: 40 }, () => counters.hit('a', now, 60_000)));
      expect(hits.map((hit) => hit.count).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      expect(new Set(hits.map((hit) => hit.start.getTime()))).toEqual(new Set([now.getTime()]));
    });

    it("starts a key's window at its first hit and a new one when it has ended; keys count apart", async (context) => {
      const { counters } = await open();
      if (!counters) return context.skip();
      const t0 = Date.UTC(2026, 0, 1, 12);
      const at = (ms: number) => new Date(t0 + ms);
      expect(await counters.hit('k', at(0), 1000)).toEqual({ count: 1, start: at(0) });
      expect(await counters.hit('k', at(999), 1000)).toEqual({ count: 2, start: at(0) });
      expect(await counters.hit('other', at(999), 1000)).toEqual({ count: 1, start: at(999) });
      expect(await counters.hit('k', at(1000), 1000)).toEqual({ count: 1, start: at(1000) });
      expect(await counters.hit('k', at(1500), 1000)).toEqual({ count: 2, start: at(1000) });
    });
  });
}
