import { describeAdapterContract } from 'benchtrack/plugin-kit/testing';
import { describe, expect, it } from 'vitest';
import ndjson from './index.js';

const SAMPLE = [
  'warming up...',
  '{"benchmark": "sort/1000", "measure": "latency", "value": 1532, "lower": 1490, "upper": 1601}',
  '{"benchmark": "sort/1000", "measure": "allocations", "value": 12}',
  '{"benchmark": "parse", "value": 88.5}',
  'done',
].join('\n');

describeAdapterContract(ndjson, { sample: SAMPLE });

describe('ndjson adapter', () => {
  it('reads one measurement a line, skipping log lines, with latency as the default measure', () => {
    expect(ndjson.parse(SAMPLE, {})).toEqual({
      'sort/1000': {
        latency: { value: 1532, lower_value: 1490, upper_value: 1601 },
        allocations: { value: 12 },
      },
      parse: { latency: { value: 88.5 } },
    });
  });

  it('finds nothing when a result line is malformed, rather than storing part of the output', () => {
    expect(
      ndjson.parse('{"benchmark": "a", "value": 1}\n{"benchmark": "b", "value": "fast"}', {}),
    ).toBeNull();
  });

  it('finds nothing when asked for a mean or a median', () => {
    expect(ndjson.parse(SAMPLE, { average: 'mean' })).toBeNull();
  });
});
