import { Option, type Command } from 'commander';
import { numberIn } from './backend-options.js';
import { collect } from './options.js';

/**
 * The options `run` and `report create` share: start point, inline thresholds and parsing settings. Their
 * values become the request body in cli/lib/run/body.ts.
 */
export function reportFlags(command: Command): Command {
  return command
    .option('--start-point <branch>', 'branch a new (or reset) branch starts from')
    .option('--start-point-hash <hash>', 'commit of the start point to start from')
    .option(
      '--start-point-max-versions <n>',
      'versions of history to take from the start point (default 255)',
      numberIn(1, 65_535),
    )
    .option('--start-point-clone-thresholds', "copy the start point's thresholds")
    .option('--start-point-reset', 'start the branch anew from its start point')
    .option(
      '--threshold-measure <measure>',
      'measure of an inline threshold (repeatable, starts a group)',
      collect,
    )
    .option(
      '--threshold-test <test>',
      'its model: static, percentage, z_score, t_test, log_normal, iqr, delta_iqr, change_point',
      collect,
    )
    .option('--threshold-min-sample-size <n>', 'its minimum sample size, or _', collect)
    .option('--threshold-max-sample-size <n>', 'its maximum sample size, or _', collect)
    .option('--threshold-window <seconds>', 'its window in seconds, or _', collect)
    .option('--threshold-lower-boundary <boundary>', 'its lower boundary, or _', collect)
    .option('--threshold-upper-boundary <boundary>', 'its upper boundary, or _', collect)
    .option('--thresholds-reset', "remove the models of this branch and testbed's thresholds not given here")
    .addOption(
      new Option('--adapter <adapter>', 'adapter of the harness output (`benchtrack adapters`)')
        .env('BENCHTRACK_ADAPTER')
        .default('magic'),
    )
    .addOption(
      new Option('--average <average>', 'average to report, for harnesses that offer both').choices([
        'mean',
        'median',
      ]),
    )
    .addOption(
      new Option('--fold <fold>', 'fold the iterations into one').choices(['min', 'max', 'mean', 'median']),
    );
}
