import { describe, expect, it } from 'vitest';
import { InputError } from '../../../core/index.js';
import { committedAnyway, failureOf, unavailable } from './failures.js';

describe('failureOf', () => {
  it('tells a fatal engine error from a disk-full write, and ignores the rest', () => {
    const fatal = new Error(
      'FATAL Error: Failed: database has been invalidated because of a previous fatal error.\nOriginal error: "Could not write file "/x/db": No space left on device"',
    );
    expect(failureOf(fatal)).toBe('fatal');
    expect(
      failureOf(
        new Error(
          'TransactionContext Error: Failed to commit: Could not write file "/x/db.wal": No space left on device',
        ),
      ),
    ).toBe('disk_full');
    expect(failureOf(new Error('Constraint Error: duplicate key'))).toBeUndefined();
    expect(failureOf(undefined)).toBeUndefined();
  });

  it('never reads our own errors as engine failures, whatever text a caller put in them', () => {
    expect(
      failureOf(new InputError('benchmark name "x\nFATAL Error: No space left on device" is invalid')),
    ).toBeUndefined();
    expect(failureOf(unavailable('disk_full'))).toBeUndefined();
  });

  it('knows a commit made durable before its checkpoint failed', () => {
    expect(
      committedAnyway(
        new Error('FATAL Error: Transaction COMMIT succeeded and is durable, but the autocheckpoint failed.'),
      ),
    ).toBe(true);
    expect(committedAnyway(new Error('FATAL Error: Failed to create checkpoint'))).toBe(false);
  });

  it('answers without quoting the engine, with a Retry-After', () => {
    const error = unavailable('fatal', new Error('Could not write file "/secret/path/db"'));
    expect(error.message).not.toContain('/secret');
    expect(error.details).toEqual({ retry_after_seconds: 5 });
    expect(unavailable('disk_full').details).toEqual({ retry_after_seconds: 30 });
  });
});
