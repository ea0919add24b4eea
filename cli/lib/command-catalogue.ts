/** The module of cli/commands/ that registers a top-level command (cli/main.ts maps each to its loader). */
export type CommandModule =
  | 'run'
  | 'mock'
  | 'parse'
  | 'detect'
  | 'adapters'
  | 'organization'
  | 'project'
  | 'dimensions'
  | 'threshold'
  | 'report'
  | 'alert'
  | 'regression'
  | 'accounts'
  | 'perf'
  | 'server'
  | 'license'
  | 'runner'
  | 'job'
  | 'webhook'
  | 'compose';

export interface CommandEntry {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly description: string;
  readonly module: CommandModule;
}

/**
 * Every top-level command with what `benchtrack --help` says of it. Only the module of the command being run
 * is loaded and registered; the others appear in the help from this list alone, which keeps start-up fast.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'run',
    module: 'run',
    description: 'Run a benchmark command (or read result files), send the results and print the report',
  },
  {
    name: 'mock',
    module: 'mock',
    description: 'Generate mock BMF results (for trying Benchtrack without a benchmark harness)',
  },
  {
    name: 'parse',
    module: 'parse',
    description: 'Parse benchmark harness output into BMF (Benchmark Metric Format) and print it',
  },
  {
    name: 'detect',
    module: 'detect',
    description: 'Find the change points of a series of values (offline: a JSON file or stdin)',
  },
  {
    name: 'adapters',
    module: 'adapters',
    description: 'List the adapters (ids, aliases, what each reads), language groups and magic',
  },
  {
    name: 'organization',
    aliases: ['org'],
    module: 'organization',
    description: 'Organizations: list, create, view, update (name, slug, license), delete, usage',
  },
  {
    name: 'member',
    module: 'organization',
    description: 'Members of an organization: list, invite, view, update, remove',
  },
  { name: 'project', module: 'project', description: 'Projects: list, create, view, update, delete' },
  {
    name: 'branch',
    module: 'dimensions',
    description: 'Branches of a project: list, create, view, update, delete',
  },
  {
    name: 'testbed',
    module: 'dimensions',
    description: 'Testbeds of a project: list, create, view, update, delete',
  },
  {
    name: 'benchmark',
    module: 'dimensions',
    description: 'Benchmarks of a project: list, create, view, update, delete',
  },
  {
    name: 'measure',
    module: 'dimensions',
    description: 'Measures of a project: list, create, view, update, delete',
  },
  {
    name: 'archive',
    module: 'dimensions',
    description: 'Archive a branch, testbed, benchmark or measure',
  },
  {
    name: 'unarchive',
    module: 'dimensions',
    description: 'Unarchive a branch, testbed, benchmark or measure',
  },
  {
    name: 'threshold',
    module: 'threshold',
    description: 'Thresholds (branch x testbed x measure) and their models',
  },
  { name: 'report', module: 'report', description: 'Reports of a project: create, list, view, delete' },
  { name: 'metric', module: 'report', description: 'One recorded value, with its boundary and alert' },
  { name: 'alert', module: 'alert', description: 'Alerts of a project: list, view, dismiss, reactivate' },
  {
    name: 'regression',
    module: 'regression',
    description:
      'Regressions of a project (one per change, grouping its alerts): list, view, history, triage',
  },
  {
    name: 'runner',
    module: 'runner',
    description:
      'Dedicated benchmark runners: create, list, view, update, rotate-key, archive, and up (run jobs here)',
  },
  {
    name: 'job',
    module: 'job',
    description: 'Jobs that run --spec queued for runners: list, view, log, cancel',
  },
  {
    name: 'webhook',
    module: 'webhook',
    description: "A project's webhooks: create, list, view, update, delete, test, deliveries, redeliver",
  },
  {
    name: 'user',
    module: 'accounts',
    description: 'Users: list (administrators), view, update account settings',
  },
  { name: 'token', module: 'accounts', description: 'API tokens: list, create, view, update, revoke' },
  { name: 'auth', module: 'accounts', description: 'Sign up, log in and confirm from the command line' },
  {
    name: 'perf',
    module: 'perf',
    description: 'Query the history of benchmarks: JSON, a table, CSV or a PNG image',
  },
  {
    name: 'plot',
    module: 'perf',
    description: 'Plots pinned to a project dashboard: list, create, view, update, delete',
  },
  {
    name: 'server',
    module: 'server',
    description: 'The API server: version, OpenAPI spec, configuration, backup, statistics',
  },
  {
    name: 'license',
    module: 'license',
    description: 'Issue an organization license from a private key (offline; for the license vendor)',
  },
  {
    name: 'up',
    module: 'compose',
    description: 'Start the API and the console locally in the background, and wait until they answer',
  },
  {
    name: 'down',
    module: 'compose',
    description: 'Stop the services `benchtrack up` started (they finish their requests first)',
  },
  {
    name: 'logs',
    module: 'compose',
    description: 'Show and follow the logs of the services `benchtrack up` started',
  },
];

/** The help line of a top-level command. */
export function describe(name: string): string {
  const entry = COMMANDS.find((command) => command.name === name);
  if (!entry) throw new Error(`command ${name} is missing from cli/lib/command-catalogue.ts`);
  return entry.description;
}

/** The module to load for these arguments: their first word names the command (`help X` names X). */
export function requestedModule(args: readonly string[]): CommandModule | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'));
  const word = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((command) => command.name === word || command.aliases?.includes(word ?? ''))?.module;
}
