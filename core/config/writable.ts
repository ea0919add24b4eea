import { randomBytes } from 'node:crypto';
import { closeSync, openSync, statfsSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Filesystems of kernel interfaces (procfs, sysfs, debugfs, cgroup, securityfs), by their statfs magic: a file
 * there is neither a log nor a database, and writing one changes the running system.
 */
const KERNEL_FILESYSTEMS = new Set([0x9fa0, 0x62656572, 0x64626720, 0x27e0eb, 0x63677270, 0x73636673]);

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    // ENOTDIR: a file stands where a directory of the path would be, which the caller reports
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The path itself, or its closest ancestor that exists, with what stat says of it. */
function closestExisting(path: string): { path: string; stats: Stats } {
  for (let current = path; ; current = dirname(current)) {
    const stats = statOrUndefined(current);
    if (stats) return { path: current, stats };
  }
}

/** Creates and removes a file of its own in `directory`, as a start that creates files there would. */
function createProbe(directory: string): void {
  const probe = join(directory, `.benchtrack-probe-${randomBytes(6).toString('hex')}`);
  closeSync(openSync(probe, 'wx'));
  unlinkSync(probe);
}

const ADVICE = 'choose a path this user can write, on a writable filesystem';

/**
 * Why a start could not open `path` to write `what` (a log file, a database file), or undefined when it could.
 * Checks the way a start opens it, without changing anything that exists: a directory, a file on a kernel
 * interface (`/proc/1/mem`), a file it may not write, or a directory where the file cannot be created (a
 * read-only filesystem, missing permission) is a problem. `besideFiles`: the start also creates files next to it
 * (a database's write-ahead log). Streams that are not regular files (`/dev/stdout`) are left to the start.
 */
export function fileLocationProblem(path: string, what: string, besideFiles = false): string | undefined {
  const absolute = resolve(path);
  let existing: { path: string; stats: Stats };
  try {
    existing = closestExisting(absolute);
    if (existing.path === absolute && KERNEL_FILESYSTEMS.has(statfsSync(absolute).type))
      return `${absolute} is a file of the kernel's interface (/proc, /sys), not a place for a ${what}`;
  } catch (error) {
    return `cannot be examined (${codeOf(error)} on ${absolute}); ${ADVICE}`;
  }
  if (existing.path === absolute) {
    if (existing.stats.isDirectory()) return `${absolute} is a directory; name a ${what} in it`;
    if (!existing.stats.isFile()) return undefined;
    try {
      closeSync(openSync(absolute, 'a'));
    } catch (error) {
      return `cannot be written (${codeOf(error)} on ${absolute}); ${ADVICE}`;
    }
    if (!besideFiles) return undefined;
  } else if (!existing.stats.isDirectory()) {
    return `cannot be created: ${existing.path} is not a directory`;
  }
  const directory = existing.path === absolute ? dirname(absolute) : existing.path;
  try {
    createProbe(directory);
  } catch (error) {
    return `cannot be created (${codeOf(error)} creating a file in ${directory}); ${ADVICE}`;
  }
  return undefined;
}
