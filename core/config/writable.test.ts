import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileLocationProblem } from './writable.js';

const dir = mkdtempSync(join(tmpdir(), 'benchtrack-writable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fileLocationProblem', () => {
  it('accepts a new file in a writable directory, or below it, and leaves nothing behind', () => {
    expect(fileLocationProblem(join(dir, 'api.log'), 'log file')).toBeUndefined();
    expect(fileLocationProblem(join(dir, 'a', 'b', 'benchtrack.db'), 'database file', true)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('accepts an existing file without changing it', () => {
    const file = join(dir, 'kept.log');
    writeFileSync(file, 'earlier lines\n');
    expect(fileLocationProblem(file, 'log file', true)).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe('earlier lines\n');
    expect(readdirSync(dir)).toEqual(['kept.log']);
    rmSync(file);
  });

  it('leaves a stream that is not a regular file to the start', () => {
    expect(fileLocationProblem('/dev/null', 'log file')).toBeUndefined();
  });

  it.each([
    [dir, 'is a directory; name a log file in it'],
    ['/proc/1/mem', "a file of the kernel's interface (/proc, /sys), not a place for a log file"],
    ['/sys/benchtrack/api.log', 'cannot be created'],
  ])('refuses %s', (path, problem) => {
    expect(fileLocationProblem(path, 'log file')).toContain(problem);
  });

  it('refuses a path below a file', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect(fileLocationProblem(join(file, 'x.db'), 'database file')).toBe(
      `cannot be created: ${file} is not a directory`,
    );
    rmSync(file);
  });
});
