import { defineAdapter, parseBmf } from '../../kit/index.js';
import { parseSerdeJson } from './shared/serde-json.js';

/**
 * Benchmark Metric Format: the output already is BMF and passes through unchanged. `{}` is a valid, empty
 * result (unlike every other adapter, which needs at least one benchmark).
 */
export default defineAdapter({
  id: 'json',
  description: 'Benchmark Metric Format (BMF) JSON, for custom harnesses',
  reads:
    'BMF JSON: {"<benchmark>": {"<measure>": {"value": 1.0, "lower_value": 0.9, "upper_value": 1.1}}}; no conversion',
  parse(output) {
    if (!/^\s*\{/.test(output)) return null;
    const value = parseSerdeJson(output);
    if (value === undefined) return null;
    const result = parseBmf(value);
    return result.success ? result.data : null;
  },
});
