import type { AdapterSettings, Bmf } from '../../../kit/index.js';
import { ResultsBuilder, spread } from './results.js';
import { TIME_UNIT, decimal, nanos, terminalLines } from './text.js';

const HEADER = /^Benchmark #?\d+: (.*\S)/;
// `  Time (mean ± σ):     21.7 ms ±   5.4 ms    [User: ...]`, or `Time (abs ≡):  20.5 ms` for a single run.
const TIME = new RegExp(
  `^[ \\t]+Time \\((mean ± σ|abs ≡)\\):[ \\t]+([0-9.]+) (${TIME_UNIT})(?:[ \\t]+±[ \\t]+([0-9.]+) (${TIME_UNIT}))?`,
);

/**
 * hyperfine's console output (styles full, basic and nocolor, progress bars included): one benchmark per
 * `Benchmark N: <command>` block, latency = mean ± σ in ns (a single run has no σ, so no bounds). The console
 * prints no median, so `median` finds nothing; the Range line and the Summary block are not read.
 */
export function parseHyperfineConsole(output: string, settings: AdapterSettings): Bmf | null {
  if (settings.average === 'median' || !output.includes('Time (')) return null;
  const results = new ResultsBuilder();
  let command: string | undefined;
  for (const line of terminalLines(output)) {
    const header = HEADER.exec(line);
    if (header) {
      command = header[1] as string;
      continue;
    }
    const time = command === undefined ? null : TIME.exec(line);
    if (!time || command === undefined) continue;
    const mean = decimal(time[2] as string);
    if (mean !== null) {
      const value = nanos(mean, time[3] as string);
      const sigma = time[4] === undefined ? null : decimal(time[4]);
      results.metric(
        command,
        'latency',
        sigma === null ? { value } : spread(value, nanos(sigma, time[5] as string)),
      );
    }
    command = undefined;
  }
  return results.build();
}
