/**
 * Line colors, one per series in input order: the Okabe-Ito palette (Okabe and Ito, "Color Universal Design",
 * 2008), whose eight colors stay distinct under the common forms of color blindness. Ordered so the first few,
 * which most images use, contrast most; its yellow (#F0E442) is too pale for a line on white, so the eighth
 * color is a darker gold of the same hue.
 */
export const SERIES_COLORS = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
  '#B8A400',
] as const;

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length] as string;
}

/** `color` (#RRGGBB) moved `amount` (0 to 1) of the way toward white. */
export function tint(color: string, amount: number): string {
  const channel = (offset: number) => {
    const value = Number.parseInt(color.slice(offset, offset + 2), 16);
    return Math.round(value + (255 - value) * amount)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/** Text, frame and gridline shades: dark enough to read, light enough to leave the lines in front. */
export const INK = { text: '#222222', muted: '#555555', frame: '#888888', grid: '#e6e6e6' } as const;
