import { Command } from 'commander';
import { registerAccountCommands } from './commands/accounts.js';
import { registerAdaptersCommand } from './commands/adapters.js';
import { registerAlertCommands } from './commands/alert.js';
import { registerComposeCommands } from './commands/compose.js';
import { registerDimensionCommands } from './commands/dimensions.js';
import { registerMockCommand } from './commands/mock.js';
import { registerOrganizationCommands } from './commands/organization.js';
import { registerParseCommand } from './commands/parse.js';
import { registerPerfCommands } from './commands/perf.js';
import { registerProjectCommands } from './commands/project.js';
import { registerReportCommands } from './commands/report.js';
import { registerRunCommand } from './commands/run.js';
import { registerServerCommands } from './commands/server.js';
import { registerThresholdCommands } from './commands/threshold.js';
import { failure } from './lib/errors.js';
import { readVersion } from './lib/version.js';

/**
 * Entry of the `benchtrack` client and its composition root. Commands are modules under cli/commands/ that
 * register their options here and import their heavy dependencies (core, zod, the adapters) only when they
 * run, so `benchtrack --help` stays fast.
 */
export function createProgram(): Command {
  const program = new Command('benchtrack')
    .description('Command-line client of Benchtrack, self-hosted continuous benchmarking.')
    .version(readVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print help')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: true })
    // `run` passes the options after its command through to it.
    .enablePositionalOptions();
  registerParseCommand(program);
  registerAdaptersCommand(program);
  registerMockCommand(program);
  registerRunCommand(program);
  registerOrganizationCommands(program);
  registerProjectCommands(program);
  registerDimensionCommands(program);
  registerThresholdCommands(program);
  registerReportCommands(program);
  registerAlertCommands(program);
  registerAccountCommands(program);
  registerPerfCommands(program);
  registerServerCommands(program);
  registerComposeCommands(program);
  return program;
}

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = failure(error);
}
