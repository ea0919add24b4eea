import { perfArrowPacked } from '../../core/perf/arrow.js';
import {
  TEXT_COLUMNS,
  unpackTexts,
  type PackedTexts,
  type TextColumn,
} from '../../core/perf/packed-texts.js';
import { perfCsv, perfJson, type PerfShapeInput } from '../../core/perf/shape.js';
import type { PerfColumns } from '../../core/index.js';
import { transferResult } from './transfer.js';

export interface PerfShapeTask {
  readonly input: Omit<PerfShapeInput, 'columns'> & { readonly columns: Omit<PerfColumns, TextColumn> };
  readonly texts: Readonly<Record<TextColumn, PackedTexts>>;
  readonly format: 'json' | 'csv' | 'arrow';
}

export interface PerfShapeOutput {
  readonly bytes: Uint8Array;
}

/**
 * Task `perf-shape`: builds the perf answer off the main thread (JSON, CSV or Arrow IPC), handed back uncopied.
 * Arrow takes the packed texts as its dictionaries; JSON and CSV want one text per row.
 */
export default function perfShape({ input, texts, format }: PerfShapeTask): PerfShapeOutput {
  if (format === 'arrow') {
    const bytes = perfArrowPacked({ ...input, texts });
    return transferResult({ bytes }, [bytes]);
  }
  const columns = { ...input.columns } as Record<string, unknown>;
  for (const name of TEXT_COLUMNS) columns[name] = unpackTexts(texts[name]);
  const whole: PerfShapeInput = { ...input, columns: columns as unknown as PerfColumns };
  const bytes = format === 'csv' ? perfCsv(whole) : perfJson(whole);
  return transferResult({ bytes }, [bytes]);
}
