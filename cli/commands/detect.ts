import { InvalidArgumentError, Option, type Command } from 'commander';
import { DETECTION_DEFAULTS, detectionParamsSchema } from '../../core/detection/params.js';
import { describe } from '../lib/command-catalogue.js';
import { UsageError } from '../lib/errors.js';

interface DetectOptions {
  maxPvalue: number;
  minMagnitude: number;
  windowLen: number;
  format: 'table' | 'json';
}

const EXAMPLES = `
Examples:
  benchtrack detect history.json
  echo '[10, 10.2, 9.9, 10.1, 12, 12.1, 11.9, 12.2]' | benchtrack detect --format json
  benchtrack detect --max-pvalue 0.001 --min-magnitude 0.05 --window-len 30 history.json

FILE holds {"values": [...]} or a bare array of numbers, oldest first; "-" or no FILE reads stdin. Each change
point is printed with the index of the first point after it (0-based), the means before and after, the
relative change and its p-value (a rank test). Exit status 1 on bad input (not numbers, NaN, fewer than 6
values). How the detector works and how well: docs/models.md, "Change-point detection".`;

/** `benchtrack detect`: the change points of a series, offline. */
export function registerDetectCommand(program: Command): void {
  program
    .command('detect')
    .description(describe('detect'))
    .argument('[FILE]', 'JSON series to read; "-" or nothing reads stdin')
    .option(
      '--max-pvalue <p>',
      'significance level: keep change points whose p-value is below it',
      setting('max_pvalue'),
    )
    .option(
      '--min-magnitude <fraction>',
      'keep only changes larger than this (0.05 = 5%)',
      setting('min_magnitude'),
    )
    .option(
      '--window-len <points>',
      'most points on each side of a change that its test reads',
      setting('window_len'),
      DETECTION_DEFAULTS.window_len,
    )
    .addOption(
      new Option('--format <format>', 'how to print the change points')
        .choices(['table', 'json'])
        .default('table'),
    )
    .addHelpText('after', EXAMPLES)
    .action(async (file: string | undefined, options: DetectOptions) => {
      const { runDetect } = await import('../lib/detect.js');
      const text = file === undefined || file === '-' ? await readStdin() : await readFile(file);
      process.stdout.write(
        runDetect(text, {
          params: {
            max_pvalue: options.maxPvalue,
            min_magnitude: options.minMagnitude,
            window_len: options.windowLen,
          },
          format: options.format,
        }),
      );
    });
}

/** A flag checked by the detector's own rule for its setting (core's schema), so the two cannot disagree. */
function setting(field: 'max_pvalue' | 'min_magnitude' | 'window_len') {
  return (value: string): number => {
    const result = detectionParamsSchema.shape[field].safeParse(value.trim() === '' ? Number.NaN : value);
    if (!result.success) throw new InvalidArgumentError(result.error.issues[0]?.message ?? 'invalid value');
    return result.data;
  };
}

async function readFile(file: string): Promise<string> {
  const { readFile: read } = await import('node:fs/promises');
  return read(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
}

async function readStdin(): Promise<string> {
  const { readStdin: piped } = await import('../lib/stdin.js');
  const text = await piped();
  if (text === undefined) throw new UsageError('no input: pass FILE or pipe a JSON series to stdin');
  return text;
}
