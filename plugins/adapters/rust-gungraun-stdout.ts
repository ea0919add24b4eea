import { defineAdapter } from '../../kit/index.js';
import { parseGungraunStdout } from './shared/gungraun-stdout.js';

/** Gungraun (iai-callgrind) console output only. */
export default defineAdapter({
  id: 'rust_gungraun_stdout',
  description: 'Gungraun / iai-callgrind console output (Rust)',
  reads:
    'Gungraun console text: "module::group::bench id" then "  Instructions: 1734|N/A (*********)" lines; one measure per metric',
  parse(output, settings) {
    // Gungraun reports one run; there is nothing to average.
    return settings.average === undefined ? parseGungraunStdout(output) : null;
  },
});
