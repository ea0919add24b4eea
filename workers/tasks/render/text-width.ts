/**
 * Text measurement without a font engine: the worker lays out labels before librsvg draws them, so it estimates
 * widths from DejaVu Sans's advance widths (the font the SVG names). Read from DejaVuSans.ttf and
 * DejaVuSans-Bold.ttf (fonts-dejavu-core 2.37), `hmtx` in units of 1/2048 em, for ASCII 32 to 126; kerning is
 * ignored (it moves a label by a pixel or two). text-width.test.ts checks the estimate against sharp's rendering.
 */
const REGULAR = [
  651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303, 1303, 1303,
  1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577,
  1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401,
  2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569,
  569, 1186, 569, 1995, 1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690,
  1303, 1716,
];
const BOLD = [
  713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748, 1425, 1425, 1425,
  1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503, 1700,
  1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663, 1585,
  2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702,
  702, 1362, 702, 2134, 1458, 1407, 1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458,
  748, 1458, 1716,
];
/** Latin, Greek and Cyrillic letters outside ASCII are about as wide as a lower-case 'o' or 'e'. */
const OTHER = { regular: 1260, bold: 1389 };
/** CJK and other wide scripts take a full em (drawn by a fallback font when one is installed). */
const WIDE = 2048;
const EM = 2048;

export const ELLIPSIS = '\u2026';

/** The width in pixels of `text` drawn in DejaVu Sans at `fontSize` pixels. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  const table = bold ? BOLD : REGULAR;
  let units = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code >= 32 && code <= 126) units += table[code - 32] as number;
    else if (code === 0x2026) units += EM;
    else if (code >= 0x2e80) units += WIDE;
    else units += bold ? OTHER.bold : OTHER.regular;
  }
  return (units / EM) * fontSize;
}

/** The largest `keep` in [0, max] for which `fits(keep)` holds, given that it holds for all smaller values. */
function largest(max: number, fits: (keep: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** `text`, or its start followed by an ellipsis, whichever is the longest that fits `maxWidth`. */
export function truncateEnd(text: string, maxWidth: number, fontSize: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const chars = Array.from(text);
  const shortened = (keep: number) => `${chars.slice(0, keep).join('').trimEnd()}${ELLIPSIS}`;
  return shortened(
    largest(chars.length - 1, (keep) => textWidth(shortened(keep), fontSize, bold) <= maxWidth),
  );
}

/**
 * `text`, or its start and end around an ellipsis, fitting `maxWidth`. The end keeps the larger share: a legend
 * label reads `branch / testbed / benchmark`, and the benchmark at the end is what tells lines apart most often.
 */
export function truncateMiddle(text: string, maxWidth: number, fontSize: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  const chars = Array.from(text);
  const shortened = (keep: number) => {
    const head = Math.floor(keep * 0.4);
    return `${chars.slice(0, head).join('')}${ELLIPSIS}${chars.slice(chars.length - (keep - head)).join('')}`;
  };
  return shortened(largest(chars.length - 1, (keep) => textWidth(shortened(keep), fontSize) <= maxWidth));
}
