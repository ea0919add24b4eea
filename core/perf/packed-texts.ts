/** The text columns of the perf columns, which travel to the shaper packed (see {@link PackedTexts}). */
export type TextColumn = 'hash' | 'alert' | 'alertLimit' | 'alertStatus';
export const TEXT_COLUMNS: readonly TextColumn[] = ['hash', 'alert', 'alertLimit', 'alertStatus'];

/**
 * A text column as its distinct texts, in order of first appearance, and one index per row (-1: null). Cloning a
 * string per row for the hop to the worker cost more than shaping an Arrow answer (255 x 100 points: 16 ms); this
 * is a typed array, moved. It is also an Arrow dictionary as it stands, so the Arrow shaper takes it directly.
 */
export interface PackedTexts {
  readonly texts: readonly string[];
  readonly codes: Int32Array;
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

export function unpackTexts({ texts, codes }: PackedTexts): (string | null)[] {
  return Array.from(codes, (k) => (k < 0 ? null : (texts[k] as string)));
}
