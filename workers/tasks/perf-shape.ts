import { perfArrow, perfCsv, perfJson, type PerfShapeInput } from '../../core/index.js';
import { transferResult } from './transfer.js';

export interface PerfShapeTask {
  readonly input: PerfShapeInput;
  readonly format: 'json' | 'csv' | 'arrow';
}

export type PerfShapeOutput = { readonly text: string } | { readonly bytes: Uint8Array };

/** Task `perf-shape`: builds the perf answer off the main thread (JSON or CSV text, or Arrow IPC bytes). */
export default function perfShape({ input, format }: PerfShapeTask): PerfShapeOutput {
  if (format === 'arrow') {
    const bytes = perfArrow(input);
    return transferResult({ bytes }, [bytes]);
  }
  return { text: format === 'csv' ? perfCsv(input) : perfJson(input) };
}
