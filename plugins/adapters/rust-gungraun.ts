import { defineAdapter } from '../../kit/index.js';
import { parseGungraunJson } from './shared/gungraun-json.js';
import { parseGungraunStdout } from './shared/gungraun-stdout.js';

/** Gungraun (formerly iai-callgrind): JSON summaries when there are any, otherwise the console output. */
export default defineAdapter({
  id: 'rust_gungraun',
  aliases: ['rust_iai_callgrind', 'iai_callgrind'],
  description: 'Gungraun / iai-callgrind (Rust): JSON summaries, else console output',
  reads: 'Gungraun (iai-callgrind) output: version 6 JSON summaries if present, otherwise the console text',
  parse(output, settings) {
    if (settings.average !== undefined) return null;
    return parseGungraunJson(output) ?? parseGungraunStdout(output);
  },
});
