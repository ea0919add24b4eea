import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The change-point corpus, copied unchanged from the shared fixtures (see its README for provenance). */
export const DETECTION_CORPUS = fileURLToPath(new URL('../fixtures/detection/', import.meta.url));

export interface CorpusCase {
  readonly id?: string;
  readonly algorithm: string;
  readonly parameters: Record<string, unknown> | null;
  readonly expected_change_points: number[] | null;
}

export interface CorpusEntry {
  readonly reference?: { readonly change_points: number[]; readonly optional?: number[] };
  readonly cases?: CorpusCase[];
}

/** EXPECTED.json's entries by file, each with its series (null for the one file that is not a series). */
export function readCorpus(): { file: string; entry: CorpusEntry; values: Float64Array | null }[] {
  const expected = JSON.parse(readFileSync(`${DETECTION_CORPUS}EXPECTED.json`, 'utf8')) as {
    files: Record<string, CorpusEntry>;
  };
  return Object.entries(expected.files).map(([file, entry]) => {
    const data = JSON.parse(readFileSync(`${DETECTION_CORPUS}${file}`, 'utf8')) as { values?: unknown };
    return {
      file,
      entry,
      values: Array.isArray(data.values) ? Float64Array.from(data.values as number[]) : null,
    };
  });
}
