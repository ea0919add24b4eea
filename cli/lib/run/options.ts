/** The options of `benchtrack run` as commander parses them (cli/commands/run.ts defines them). */
export interface RunOptions {
  readonly project?: string;
  readonly branch?: string;
  /** `false` when the deprecated `--no-hash` was given. */
  readonly hash?: string | false;
  readonly testbed?: string;
  readonly startPoint?: string;
  readonly startPointHash?: string;
  readonly startPointMaxVersions?: number;
  readonly startPointCloneThresholds?: boolean;
  readonly startPointReset?: boolean;
  readonly thresholdMeasure?: string[];
  readonly thresholdTest?: string[];
  readonly thresholdMinSampleSize?: string[];
  readonly thresholdMaxSampleSize?: string[];
  readonly thresholdWindow?: string[];
  readonly thresholdLowerBoundary?: string[];
  readonly thresholdUpperBoundary?: string[];
  readonly thresholdsReset?: boolean;
  readonly adapter: string;
  readonly average?: 'mean' | 'median';
  readonly fold?: 'min' | 'max' | 'mean' | 'median';
  readonly iter: number;
  readonly backdate?: number;
  readonly allowFailure?: boolean;
  readonly err?: boolean;
  readonly errorOnAlert?: boolean;
  readonly format: 'human' | 'json' | 'html';
  readonly quiet?: boolean;
  readonly dryRun?: boolean;
  readonly exec?: boolean;
  readonly shell?: string;
  readonly flag?: string;
  readonly buildTime?: boolean;
  readonly file?: string[];
  readonly fileSize?: string[];
  readonly githubActions?: string;
  readonly ciId?: string;
  readonly ciNumber?: number;
  readonly ciOnlyThresholds?: boolean;
  readonly ciOnlyOnAlert?: boolean;
  readonly ciNoMetrics?: boolean;
  // Deprecated spellings: present only to fail with the replacement's name.
  readonly branchStartPoint?: string;
  readonly branchStartPointHash?: string;
  readonly branchReset?: boolean;
  readonly ifBranch?: string;
  readonly elseIfBranch?: string;
  readonly elseBranch?: boolean;
  readonly endifBranch?: boolean;
  readonly html?: boolean;
}

/** Deprecated flags (spec, Versioning) and what to write instead. */
const DEPRECATED: readonly [keyof RunOptions, string, (value: unknown) => boolean, string][] = [
  ['hash', '--no-hash', (v) => v === false, 'drop it: the hash is read from git; set one with --hash <HASH>'],
  ['branchStartPoint', '--branch-start-point', (v) => v !== undefined, 'use --start-point <BRANCH>'],
  [
    'branchStartPointHash',
    '--branch-start-point-hash',
    (v) => v !== undefined,
    'use --start-point-hash <HASH>',
  ],
  ['branchReset', '--branch-reset', (v) => v === true, 'use --start-point-reset'],
  ['ifBranch', '--if-branch', (v) => v !== undefined, 'use --branch <BRANCH>'],
  [
    'elseIfBranch',
    '--else-if-branch',
    (v) => v !== undefined,
    'use --start-point <BRANCH> (the branch a new branch starts from)',
  ],
  [
    'elseBranch',
    '--else-branch',
    (v) => v === true,
    'drop it: a branch that does not exist is always created (from --start-point when given)',
  ],
  ['endifBranch', '--endif-branch', (v) => v === true, 'drop it: it has no effect any more'],
  ['html', '--html', (v) => v === true, 'use --format html'],
];

/** The messages for deprecated flags that were given, each naming its replacement. */
export function deprecatedFlags(options: RunOptions): string[] {
  return DEPRECATED.filter(([key, , given]) => given(options[key])).map(
    ([, flag, , instead]) => `${flag} is no longer supported: ${instead}`,
  );
}
