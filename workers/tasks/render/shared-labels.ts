import { textWidth, truncateMiddle } from './text-width.js';

/** How legend labels separate their parts: `branch / testbed / benchmark`. */
export const LABEL_SEPARATOR = ' / ';

/**
 * Moves the label parts that every series shares out of the legend. Most images show one branch on one testbed
 * with several benchmarks; saying `main / ubuntu-22.04` once, under the title, leaves the legend to what tells
 * the lines apart, short enough to read in a small image. Applies only to two or more labels with the same
 * number of parts, at least one part shared and one differing; otherwise the labels stay whole.
 */
export function splitSharedParts(labels: readonly string[]): { shared: string; distinct: string[] } {
  const whole = { shared: '', distinct: [...labels] };
  if (labels.length < 2) return whole;
  const parts = labels.map((label) => label.split(LABEL_SEPARATOR));
  const count = parts[0]?.length ?? 0;
  if (count < 2 || parts.some((p) => p.length !== count)) return whole;
  const same = Array.from({ length: count }, (_, i) => parts.every((p) => p[i] === parts[0]?.[i]));
  if (!same.includes(true) || !same.includes(false)) return whole;
  return {
    shared: (parts[0] as string[]).filter((_, i) => same[i]).join(LABEL_SEPARATOR),
    distinct: parts.map((p) => p.filter((_, i) => !same[i]).join(LABEL_SEPARATOR)),
  };
}

/**
 * A label shortened to `maxWidth` part by part: each ` / ` part keeps its start and end around an ellipsis, so
 * `feature/long-branch-7 / crate::module::bench_3` still shows the `-7` and the `bench_3` that tell lines apart.
 * Parts narrower than an equal share keep their full width and leave the rest to longer ones.
 */
export function shortenLabel(label: string, maxWidth: number, fontSize: number): string {
  if (textWidth(label, fontSize) <= maxWidth) return label;
  const parts = label.split(LABEL_SEPARATOR);
  const separators = textWidth(LABEL_SEPARATOR, fontSize) * (parts.length - 1);
  if (parts.length === 1 || separators >= maxWidth / 2) return truncateMiddle(label, maxWidth, fontSize);
  const widths = parts.map((part) => textWidth(part, fontSize));
  const shares = new Array<number>(parts.length).fill(0);
  let room = maxWidth - separators;
  let open = parts.map((_, i) => i);
  // water-filling: settle every part that fits its equal share, then split what is left among the others
  for (;;) {
    const share = room / open.length;
    const fitting = open.filter((i) => (widths[i] as number) <= share);
    if (fitting.length === 0) {
      for (const i of open) shares[i] = share;
      break;
    }
    for (const i of fitting) {
      shares[i] = widths[i] as number;
      room -= widths[i] as number;
    }
    open = open.filter((i) => (widths[i] as number) > share);
    if (open.length === 0) break;
  }
  return parts.map((part, i) => truncateMiddle(part, shares[i] as number, fontSize)).join(LABEL_SEPARATOR);
}
