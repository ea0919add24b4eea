import { escapeXml } from './escape.js';
import type { Theme } from './palette.js';
import { truncateEnd } from './text-width.js';

const TITLE_FONT = 18;
const SUBTITLE_FONT = 13;
const EDGE = 16;

/**
 * The centered title (bold, shortened with an ellipsis to the width) and, under it, the label parts every series
 * shares (see splitSharedParts). `height` is where the plot area may start.
 */
export function headerSvg(
  title: string,
  subtitle: string,
  width: number,
  ink: Theme,
): { svg: string; height: number } {
  const lines: string[] = [];
  let y = EDGE;
  for (const [text, size, bold] of [
    [title, TITLE_FONT, true],
    [subtitle, SUBTITLE_FONT, false],
  ] as const) {
    if (text === '') continue;
    y += size;
    const shown = truncateEnd(text, width - 2 * EDGE, size, bold);
    const weight = bold ? ' font-weight="bold"' : '';
    const fill = bold ? ink.text : ink.muted;
    lines.push(
      `<text x="${width / 2}" y="${y}" text-anchor="middle" font-size="${size}"${weight} fill="${fill}">${escapeXml(shown)}</text>`,
    );
    y += 6;
  }
  return { svg: lines.join(''), height: lines.length === 0 ? EDGE + 4 : y + 10 };
}
