/**
 * The colors of an image. Lines use the Okabe-Ito palette (Okabe and Ito, "Color Universal Design", 2008), whose
 * eight colors stay distinct under the common forms of color blindness, ordered so the first few, which most
 * images use, contrast most. On white its yellow (#F0E442) is too pale for a line, so the eighth color is a darker
 * gold of the same hue; on the dark background its black is invisible, so the seventh is a light grey there and
 * the yellow is the palette's own.
 */
export interface Theme {
  readonly background: string;
  /** Text, tick labels, the plot's frame, gridlines: dark (light) enough to read, faint enough to leave the lines in front. */
  readonly text: string;
  readonly muted: string;
  readonly frame: string;
  readonly grid: string;
  readonly series: readonly string[];
  /** Regression markers: a regression, an improvement. */
  readonly regression: string;
  readonly improvement: string;
}

export const LIGHT: Theme = {
  background: '#ffffff',
  text: '#222222',
  muted: '#555555',
  frame: '#888888',
  grid: '#e6e6e6',
  series: ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#B8A400'],
  regression: '#dc2626',
  improvement: '#059669',
};

/** GitHub's dark canvas (#0d1117), so an image embedded in a dark README sits on its page. */
export const DARK: Theme = {
  background: '#0d1117',
  text: '#e6edf3',
  muted: '#9aa4ae',
  frame: '#6e7681',
  grid: '#262c36',
  series: ['#3c9ee0', '#f07a2a', '#19c293', '#e08fc0', '#f0a818', '#7ccaf5', '#c8c8c8', '#f0e442'],
  regression: '#f85149',
  improvement: '#3fb950',
};

export const THEMES = { light: LIGHT, dark: DARK } as const;

export function seriesColor(theme: Theme, index: number): string {
  return theme.series[index % theme.series.length] as string;
}

/** `color` (#RRGGBB) moved `amount` (0 to 1) of the way toward `toward` (#RRGGBB): the background, for a paler line. */
export function tint(color: string, amount: number, toward: string): string {
  const channel = (offset: number) => {
    const value = Number.parseInt(color.slice(offset, offset + 2), 16);
    const target = Number.parseInt(toward.slice(offset, offset + 2), 16);
    return Math.round(value + (target - value) * amount)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}
