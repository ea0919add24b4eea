import { describe, expect, it } from 'vitest';
import { uuidv7s } from './uuid.js';

describe('uuidv7s', () => {
  it('makes distinct version 7 UUIDs that start with the time in milliseconds', () => {
    const now = new Date(Date.UTC(2026, 10, 27, 8, 30, 0, 123));
    const uuids = uuidv7s(500, now);
    expect(new Set(uuids).size).toBe(500);
    const prefix = now.getTime().toString(16).padStart(12, '0');
    for (const uuid of uuids) {
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(uuid.replaceAll('-', '').slice(0, 12)).toBe(prefix);
    }
    expect(uuidv7s(0, now)).toEqual([]);
  });
});
