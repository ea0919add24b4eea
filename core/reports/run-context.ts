import { InputError } from '../errors.js';
import { checkName } from '../name-rule.js';
import { slugify } from '../slug.js';

/** Run context keys are prefixed; the reference's prefix is accepted too, so its clients keep working. */
const PREFIXES = ['benchtrack.dev/v0/', 'bencher.dev/v0/'];

export function contextValue(
  context: Readonly<Record<string, string>> | undefined,
  key: string,
): string | undefined {
  if (!context) return undefined;
  for (const prefix of PREFIXES) {
    const value = context[`${prefix}${key}`]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** A context hash that is not a full git hash is ignored rather than rejected: the context is advisory. */
function gitHash(value: string | undefined): string | undefined {
  return value && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/i.test(value) ? value.toLowerCase() : undefined;
}

const OPERATING_SYSTEMS: Record<string, string> = {
  linux: 'Linux',
  macos: 'macOS',
  darwin: 'macOS',
  windows: 'Windows',
};

export interface RunDefaults {
  readonly branch: string;
  readonly hash: string | undefined;
  readonly testbed: string;
  /** Without a project: the name and slug of the project the context identifies. */
  readonly project: { readonly name: string; readonly slug: string } | undefined;
}

/**
 * Defaults of a run from its context (reference section 2.1): branch from the git branch, else `main`; hash
 * from the git head; testbed from the OS (Linux, macOS, Windows), else `localhost`; and without a project, one
 * identified by the repository name, its root commit and the machine fingerprint, so repeated runs from the
 * same checkout land in the same project.
 */
export function runDefaults(
  context: Readonly<Record<string, string>> | undefined,
  hasProject: boolean,
): RunDefaults {
  const os = contextValue(context, 'testbed/os')?.toLowerCase();
  const repo = contextValue(context, 'repo/name');
  let project: RunDefaults['project'];
  if (!hasProject) {
    if (!repo) {
      throw new InputError(
        'project is required: name one, or send a run context with the repository name (benchtrack run does)',
      );
    }
    checkName('context repo/name (the project name)', repo);
    const root = contextValue(context, 'repo/hash')?.slice(0, 7) ?? '';
    const fingerprint = contextValue(context, 'testbed/fingerprint')?.slice(0, 13) ?? '';
    project = {
      name: repo.slice(0, 64),
      slug: slugify(`${repo.slice(0, 42)} ${root} ${fingerprint}`) || 'project',
    };
  }
  const branch = contextValue(context, 'branch/ref/name') ?? 'main';
  checkName('context branch/ref/name (the branch name)', branch);
  return {
    branch,
    hash: gitHash(contextValue(context, 'branch/hash')),
    testbed: (os && OPERATING_SYSTEMS[os]) ?? 'localhost',
    project,
  };
}
