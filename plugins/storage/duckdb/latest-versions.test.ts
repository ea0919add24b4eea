import { describe, expect, it } from 'vitest';
import { LatestVersions } from './latest-versions.js';

const version = (id: number, number: number) => ({
  id,
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  project_id: 1,
  number,
  hash: null,
  created: new Date(0),
});

describe('the newest version of each head', () => {
  it('follows a version the transaction inserted and linked, once the transaction commits', () => {
    const latest = new LatestVersions();
    expect(latest.get(1)).toBeUndefined();
    latest.set(1, version(10, 4));
    latest.inserted(version(11, 5));
    latest.linked(1, 11);
    expect(latest.get(1)).toEqual(version(11, 5));
    latest.end(true);
    expect(latest.get(1)).toEqual(version(11, 5));
  });

  it('keeps the newer version when a lower-numbered one is linked, and forgets a head given an unknown one', () => {
    const latest = new LatestVersions();
    latest.set(1, version(10, 4));
    latest.set(2, null);
    latest.inserted(version(11, 2));
    latest.linked(1, 11);
    latest.linked(2, 99); // not inserted by this transaction: its number is unknown here
    expect(latest.get(1)).toEqual(version(10, 4));
    expect(latest.get(2)).toBeUndefined();
    latest.end(true);
    expect(latest.get(2)).toBeUndefined();
  });

  it('drops what a rolled-back transaction did, and everything after any other write to version or head_version', () => {
    const latest = new LatestVersions();
    latest.set(1, version(10, 4));
    latest.end(true);
    latest.inserted(version(11, 5));
    latest.linked(1, 11);
    latest.end(false);
    expect(latest.get(1)).toEqual(version(10, 4));
    latest.changed('head_version');
    expect(latest.get(1)).toBeUndefined();
    latest.end(false);
    expect(latest.get(1)).toEqual(version(10, 4));
    latest.changed('*');
    latest.end(true);
    expect(latest.get(1)).toBeUndefined();
    latest.changed('report');
    latest.set(1, version(10, 4));
    expect(latest.get(1)).toEqual(version(10, 4));
  });
});
