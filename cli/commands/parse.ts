import { Option, type Command } from 'commander';
import { describe } from '../lib/command-catalogue.js';
import { UsageError } from '../lib/errors.js';
import { collect } from '../lib/options.js';

interface ParseOptions {
  adapter: string;
  average?: 'mean' | 'median';
  fold?: 'min' | 'max' | 'mean' | 'median';
  plugin?: string[];
}

const EXAMPLES = `
Examples:
  cargo bench | benchtrack parse --adapter rust_bench
  benchtrack parse --adapter magic target/criterion.txt
  benchtrack parse --adapter shell_hyperfine --average median hyperfine.json
  benchtrack parse --adapter go_bench --fold median run1.txt run2.txt run3.txt
  benchtrack parse --plugin ./my-adapter.js --adapter my_harness output.txt

One FILE (or stdin) prints one BMF document; several FILEs are several iterations and print a JSON array of
documents, or one document with --fold. Exit status 1 when the adapter finds no benchmarks.
Run \`benchtrack adapters\` for the adapters and what they read.`;

/** `benchtrack parse`: what `run` would submit for this output, without a server. */
export function registerParseCommand(program: Command): void {
  program
    .command('parse')
    .description(describe('parse'))
    .argument('[FILE...]', 'harness output files, one per iteration (default: stdin)')
    .option('-a, --adapter <name>', 'adapter id or alias, language group (rust, go, ...) or magic', 'magic')
    .addOption(
      new Option('--average <average>', 'which average to report, for harnesses that offer both').choices([
        'mean',
        'median',
      ]),
    )
    .addOption(
      new Option('--fold <fold>', 'fold several iterations into one').choices([
        'min',
        'max',
        'mean',
        'median',
      ]),
    )
    .option('--plugin <module>', 'load a third-party adapter module first (repeatable)', collect)
    .addHelpText('after', EXAMPLES)
    .action(async (files: string[], options: ParseOptions) => {
      const { runParse } = await import('../lib/parse.js');
      const read = async () => (files.length > 0 ? readFiles(files) : [await readStdin()]);
      process.stdout.write(await runParse(read, options));
    });
}

async function readFiles(files: string[]): Promise<string[]> {
  const { readFile } = await import('node:fs/promises');
  return Promise.all(
    files.map((file) =>
      readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(
          `cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
        );
      }),
    ),
  );
}

async function readStdin(): Promise<string> {
  const { readStdin: piped } = await import('../lib/stdin.js');
  const text = await piped();
  if (text === undefined) throw new UsageError('no input: pass FILE... or pipe the harness output to stdin');
  return text;
}
