import { InvalidArgumentError, type Command } from 'commander';
import { describe } from '../lib/command-catalogue.js';

interface MockOptions {
  count: number;
  measure?: string[];
  pow: number;
  fail?: boolean;
  flaky?: boolean;
  seed?: number;
}

const EXAMPLES = `
Examples:
  benchtrack mock
  benchtrack mock --count 10 --measure latency --measure throughput --pow 3
  benchtrack mock --seed 6 > results.json
  benchtrack mock --flaky --seed 1; echo "exit status $?"

Benchmark c (benchtrack::mock_0, ...) gets, for every measure, a value drawn uniformly from
[10^pow * c, 10^pow * (c + 1)), with lower_value = 0.9 * value and upper_value = 1.1 * value.`;

/** `benchtrack mock`: random BMF for trying out a server, thresholds and plots. */
export function registerMockCommand(program: Command): void {
  program
    .command('mock')
    .description(describe('mock'))
    .option('--count <count>', 'number of mock benchmarks', integer(0), 5)
    .option(
      '--measure <measure>',
      'measure of every benchmark (repeatable; default: latency)',
      collectMeasure,
    )
    .option('--pow <pow>', 'power of 10 of the mock values', integer(-300, 300), 1)
    .option('--fail', 'exit with status 1 after printing')
    .option('--flaky', 'exit with status 1 after printing, half of the time')
    .option('--seed <seed>', 'seed the generator, for reproducible output', integer(0, 2 ** 32 - 1))
    .addHelpText('after', EXAMPLES)
    .action(async (options: MockOptions) => {
      const { mockResults } = await import('../lib/mock-bmf.js');
      const mock = mockResults({
        ...options,
        measures: options.measure ?? ['latency'],
      });
      process.stdout.write(`${JSON.stringify(mock.bmf, null, 2)}\n`);
      if (options.fail || (options.flaky && mock.flakyFails)) {
        process.stderr.write(
          `benchtrack: mock ${options.fail ? 'failure (--fail)' : 'flaky failure (--flaky)'}\n`,
        );
        process.exitCode = 1;
      }
    });
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    }
    return n;
  };
}

function collectMeasure(value: string, previous: string[] | undefined): string[] {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  return [...(previous ?? []), value];
}
