import { Option, type Command } from 'commander';
import { describe } from '../lib/command-catalogue.js';
import { addBackendOptions, numberIn, type BackendOptions } from '../lib/backend-options.js';
import { collect } from '../lib/options.js';
import { reportFlags } from '../lib/report-flags.js';
import type { RunOptions } from '../lib/run/options.js';
import type { RemoteOptions } from '../lib/run/remote.js';

const EXAMPLES = `
Examples:
  benchtrack run --project my-project "cargo bench"
  benchtrack run --adapter go_bench --exec go test -bench=. ./...
  benchtrack mock | benchtrack run --project my-project --adapter json
  benchtrack run --file results/bmf.json --file results/bmf-2.json --fold median
  benchtrack run --branch "$GITHUB_HEAD_REF" --start-point main --start-point-clone-thresholds \\
    --threshold-measure latency --threshold-test t_test --threshold-upper-boundary 0.99 \\
    --thresholds-reset --error-on-alert "npm run bench"
  benchtrack run --build-time --file-size dist/app.js "npm run build"
  benchtrack run --github-actions "$GITHUB_TOKEN" --ci-id linux "make bench"
  benchtrack run --spec bench-box --project my-project --err "cargo bench"

The command's output is echoed to stderr (not with --quiet); stdout holds only the report, so
\`--format json > report.json\` stays clean. One command string runs through the shell (/bin/sh -c);
several arguments, or --exec, run directly. Without a command, --file or --file-size, piped stdin is read.

Without --project, the project is found (or made) from the git repository; without --branch, --hash or
--testbed, the server takes the git branch, the head commit and the OS. The threshold flags are grouped by
position: the i-th --threshold-test, ... belong to the i-th --threshold-measure; _ leaves a value unset.

With --spec the command runs on a dedicated runner of that spec (docs/runners.md), in a fresh checkout of
--repo at --hash (default: the remote "origin" and HEAD, which the runner must be able to fetch); the output
streams here and the report prints as a local run's would. Ctrl+C stops following, not the job.

Exit status: 0 when the report was stored (and, with --error-on-alert, has no alert); 1 otherwise.`;

const hidden = (flags: string) => new Option(flags).hideHelp();

/** `benchtrack run`: run benchmarks and track their results (reference section 5.3). */
export function registerRunCommand(program: Command): void {
  const command = program
    .command('run')
    .description(describe('run'))
    .argument(
      '[command...]',
      'benchmark command: one string through the shell, or the program and its arguments',
    )
    .addOption(
      new Option('--project <project>', 'project UUID or slug; created when it does not exist').env(
        'BENCHTRACK_PROJECT',
      ),
    )
    .addOption(
      new Option('--branch <branch>', 'branch UUID, slug or name (default: the git branch, else main)').env(
        'BENCHTRACK_BRANCH',
      ),
    )
    .option('--hash <hash>', 'git commit hash of the version (default: the git HEAD)')
    .addOption(
      new Option('--testbed <testbed>', 'testbed UUID, slug or name (default: the OS)').env(
        'BENCHTRACK_TESTBED',
      ),
    )
    .option('--iter <n>', 'run the command this many times (one iteration each)', numberIn(1, 1024), 1)
    .option(
      '--backdate <epoch-seconds>',
      'date the run at this time (seconds since 1970)',
      numberIn(0, 32_503_680_000),
    )
    .option('--allow-failure', 'skip an iteration whose command fails instead of stopping')
    .option('--error-on-alert', 'exit with status 1 when the report has alerts')
    .option('--err', 'short for --error-on-alert')
    .addOption(
      new Option('--format <format>', 'format of the report printed on stdout')
        .choices(['human', 'json', 'html'])
        .default('human'),
    )
    .option('-q, --quiet', "print only the report (not the command's output)")
    .option('--dry-run', 'print the run that would be sent, send nothing')
    .option('--exec', 'run the command directly, without a shell')
    .option('--shell <shell>', 'shell of a one-string command (default /bin/sh)')
    .option('--flag <flag>', 'flag that passes the command to the shell (default -c)')
    .option('--build-time', 'track how long the command takes, as the build-time measure')
    .option(
      '--file <path>',
      'read results from this file after the command (repeatable; each file is one iteration)',
      collect,
    )
    .option(
      '--file-size <path>',
      'track the size of this file, as the file-size measure (repeatable)',
      collect,
    )
    .option(
      '--github-actions <token>',
      'post a check run, a pull-request comment and the job summary on GitHub',
    )
    .option('--ci-id <id>', 'tells apart the comments of several runs in one pull request')
    .option(
      '--ci-number <number>',
      'pull request to comment on (default: the one of the event)',
      numberIn(1, 2 ** 31),
    )
    .option('--ci-only-thresholds', 'comment only when a threshold applies')
    .option(
      '--ci-only-on-alert',
      'start a comment only when there is an alert (an existing one is still updated)',
    )
    .option('--ci-no-metrics', 'leave values and limits out of the comment, check run and summary')
    .option(
      '--spec <spec>',
      'queue the run as a job for a dedicated runner of this spec (its report goes to that testbed)',
    )
    .option(
      '--repo <url>',
      'with --spec: the git repository the runner fetches (default: the remote "origin")',
    )
    .option(
      '--job-timeout <seconds>',
      'with --spec: how long the command may run on the runner (default 3600)',
      numberIn(1, 86_400),
    )
    .option('--no-wait', 'with --spec: print the job UUID instead of waiting for its report')
    .addOption(new Option('--no-hash').hideHelp())
    .addOption(hidden('--branch-start-point <branch>'))
    .addOption(hidden('--branch-start-point-hash <hash>'))
    .addOption(hidden('--branch-reset'))
    .addOption(hidden('--if-branch <branch>'))
    .addOption(hidden('--else-if-branch <branch>'))
    .addOption(hidden('--else-branch'))
    .addOption(hidden('--endif-branch'))
    .addOption(hidden('--html'))
    .passThroughOptions()
    .addHelpText('after', EXAMPLES);
  addBackendOptions(reportFlags(command)).action(
    async (args: string[], options: RunOptions & BackendOptions & Partial<RemoteOptions>) => {
      const { runBenchmarks } = await import('../lib/run/run.js');
      process.exitCode = await runBenchmarks(args, options);
    },
  );
}
