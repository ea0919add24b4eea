import { perfArrow } from '../../core/perf/arrow.js';
import { perfCsv, perfJson, type PerfShapeInput } from '../../core/perf/shape.js';
import type { PerfColumns } from '../../core/index.js';
import { transferResult } from './transfer.js';

/** The text columns of the perf columns, which travel packed (see {@link PackedTexts}). */
export type TextColumn = 'hash' | 'alert' | 'alertLimit' | 'alertStatus';
export const TEXT_COLUMNS: readonly TextColumn[] = ['hash', 'alert', 'alertLimit', 'alertStatus'];

/**
 * A text column as its distinct texts and one index per row (-1: null). Cloning a string per row for the hop to
 * the worker cost more than shaping an Arrow answer (255 x 100 points: 16 ms); this is a typed array, moved.
 */
export interface PackedTexts {
  readonly texts: readonly string[];
  readonly codes: Int32Array;
}

export interface PerfShapeTask {
  readonly input: Omit<PerfShapeInput, 'columns'> & { readonly columns: Omit<PerfColumns, TextColumn> };
  readonly texts: Readonly<Record<TextColumn, PackedTexts>>;
  readonly format: 'json' | 'csv' | 'arrow';
}

export interface PerfShapeOutput {
  readonly bytes: Uint8Array;
}

export function packTexts(column: readonly (string | null)[]): PackedTexts {
  const index = new Map<string, number>();
  const texts: string[] = [];
  const codes = new Int32Array(column.length);
  column.forEach((text, i) => {
    if (text === null) {
      codes[i] = -1;
      return;
    }
    let k = index.get(text);
    if (k === undefined) index.set(text, (k = texts.push(text) - 1));
    codes[i] = k;
  });
  return { texts, codes };
}

function unpackTexts({ texts, codes }: PackedTexts): (string | null)[] {
  return Array.from(codes, (k) => (k < 0 ? null : (texts[k] as string)));
}

/** Task `perf-shape`: builds the perf answer off the main thread (JSON, CSV or Arrow IPC), handed back uncopied. */
export default function perfShape({ input, texts, format }: PerfShapeTask): PerfShapeOutput {
  const columns = { ...input.columns } as Record<string, unknown>;
  for (const name of TEXT_COLUMNS) columns[name] = unpackTexts(texts[name]);
  const whole: PerfShapeInput = { ...input, columns: columns as unknown as PerfColumns };
  const bytes = format === 'arrow' ? perfArrow(whole) : format === 'csv' ? perfCsv(whole) : perfJson(whole);
  return transferResult({ bytes }, [bytes]);
}
