import { perfArrow } from '../../core/perf/arrow.js';
import { perfCsv, perfJson, type PerfShapeInput } from '../../core/perf/shape.js';
import { transferResult } from './transfer.js';

export interface PerfShapeTask {
  readonly input: PerfShapeInput;
  readonly format: 'json' | 'csv' | 'arrow';
}

export interface PerfShapeOutput {
  readonly bytes: Uint8Array;
}

/** Task `perf-shape`: builds the perf answer off the main thread (JSON, CSV or Arrow IPC), handed back uncopied. */
export default function perfShape({ input, format }: PerfShapeTask): PerfShapeOutput {
  const bytes = format === 'arrow' ? perfArrow(input) : format === 'csv' ? perfCsv(input) : perfJson(input);
  return transferResult({ bytes }, [bytes]);
}
