import { defineAdapter } from '../../kit/index.js';
import { parseGungraunJson } from './shared/gungraun-json.js';

/** Gungraun JSON summaries only. */
export default defineAdapter({
  id: 'rust_gungraun_json',
  description: 'Gungraun / iai-callgrind JSON summaries (Rust)',
  reads:
    'Gungraun JSON summaries (version 6), NDJSON or pretty-printed, mixed with other output; one measure per metric',
  parse(output, settings) {
    return settings.average === undefined ? parseGungraunJson(output) : null;
  },
});
