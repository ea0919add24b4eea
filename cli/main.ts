import { Command } from 'commander';
import { COMMANDS, requestedModule, type CommandModule } from './lib/command-catalogue.js';
import { failure } from './lib/errors.js';
import { readVersion } from './lib/version.js';

type Register = (program: Command) => void;

const EXAMPLES = `
Examples:
  benchtrack up                                      # a local API and console
  benchtrack mock | benchtrack run --project demo    # a first report
  benchtrack run --project my-app --err "cargo bench"
  benchtrack perf my-app --branches main --testbeds linux --benchmarks parse --measures latency --table
  benchtrack run --help                              # every option, with examples

The API is at --host (BENCHTRACK_HOST, default http://localhost:61016); pass a token with --token
(BENCHTRACK_API_TOKEN). Exit status 0 on success, 1 on any failure. Documentation: docs/cli.md.`;

/** The loader of each command module: only the one a command line needs is imported. */
const MODULES: Record<CommandModule, () => Promise<Register>> = {
  run: async () => (await import('./commands/run.js')).registerRunCommand,
  mock: async () => (await import('./commands/mock.js')).registerMockCommand,
  parse: async () => (await import('./commands/parse.js')).registerParseCommand,
  detect: async () => (await import('./commands/detect.js')).registerDetectCommand,
  adapters: async () => (await import('./commands/adapters.js')).registerAdaptersCommand,
  organization: async () => (await import('./commands/organization.js')).registerOrganizationCommands,
  project: async () => (await import('./commands/project.js')).registerProjectCommands,
  dimensions: async () => (await import('./commands/dimensions.js')).registerDimensionCommands,
  threshold: async () => (await import('./commands/threshold.js')).registerThresholdCommands,
  report: async () => (await import('./commands/report.js')).registerReportCommands,
  alert: async () => (await import('./commands/alert.js')).registerAlertCommands,
  regression: async () => (await import('./commands/regression.js')).registerRegressionCommands,
  accounts: async () => (await import('./commands/accounts.js')).registerAccountCommands,
  perf: async () => (await import('./commands/perf.js')).registerPerfCommands,
  server: async () => (await import('./commands/server.js')).registerServerCommands,
  license: async () => (await import('./commands/license.js')).registerLicenseCommand,
  runner: async () => (await import('./commands/runner.js')).registerRunnerCommands,
  job: async () => (await import('./commands/job.js')).registerJobCommands,
  webhook: async () => (await import('./commands/webhook.js')).registerWebhookCommands,
  compose: async () => (await import('./commands/compose.js')).registerComposeCommands,
};

/**
 * Entry of the `benchtrack` client and its composition root. Only the module of the command being run is
 * imported and registered; every other command is listed from the catalogue, so `--version` and `--help` load
 * commander and three small files. Each command imports its heavy dependencies (core, zod, the adapters)
 * only in its action.
 */
export async function createProgram(args: readonly string[]): Promise<Command> {
  const program = new Command('benchtrack')
    .description('Command-line client of Benchtrack, self-hosted continuous benchmarking.')
    .version(readVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print help')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: true })
    // `run` passes the options after its command through to it.
    .enablePositionalOptions()
    .addHelpText('after', EXAMPLES);
  const requested = requestedModule(args);
  if (requested) (await MODULES[requested]())(program);
  for (const entry of COMMANDS) {
    if (entry.module === requested) continue;
    const stub = program.command(entry.name).description(entry.description);
    for (const alias of entry.aliases ?? []) stub.alias(alias);
  }
  return program;
}

try {
  await (await createProgram(process.argv.slice(2))).parseAsync(process.argv);
} catch (error) {
  process.exitCode = failure(error);
}
