import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ELLIPSIS, textWidth, truncateEnd, truncateMiddle } from './text-width.js';

/** The inked width of `text` in DejaVu Sans as librsvg draws it (sharp trims the white margin away). */
async function renderedWidth(text: string, size: number, bold = false): Promise<number> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="60"><rect width="1600" height="60" fill="#fff"/><text x="10" y="40" font-family="DejaVu Sans" font-size="${size}"${bold ? ' font-weight="bold"' : ''}>${text}</text></svg>`;
  const { info } = await sharp(Buffer.from(svg))
    .trim({ threshold: 10 })
    .toBuffer({ resolveWithObject: true });
  return info.width;
}

describe('textWidth', () => {
  it('uses per-glyph widths, not an average', () => {
    expect(textWidth('WWWW', 12)).toBeGreaterThan(textWidth('iiii', 12) * 3);
    expect(textWidth('', 12)).toBe(0);
    expect(textWidth('abc', 24)).toBeCloseTo(textWidth('abc', 12) * 2);
    expect(textWidth('Title', 18, true)).toBeGreaterThan(textWidth('Title', 18));
  });

  it.each([
    ['main / ubuntu-22.04-x64 / bench::parse::small_json', 12, false],
    ['Latency (nanoseconds (ns))', 13, false],
    ['Parser latency, main branch', 18, true],
    ['0123456789 kMG', 12, false],
  ] as const)('estimates "%s" at %dpx within 4%% of what librsvg draws', async (text, size, bold) => {
    // ink is a little narrower than the advance widths (side bearings of the first and last glyph)
    const rendered = await renderedWidth(text, size, bold);
    expect(Math.abs(textWidth(text, size, bold) - rendered) / rendered).toBeLessThan(0.04);
  });
});

describe('truncation', () => {
  const label = 'feature/very-long-branch-name / self-hosted-runner / crate::module::bench_7';

  it('returns text that fits unchanged', () => {
    expect(truncateEnd('short', 200, 12)).toBe('short');
    expect(truncateMiddle('short', 200, 12)).toBe('short');
  });

  it('cuts the end to fit, with an ellipsis', () => {
    const cut = truncateEnd(label, 150, 12);
    expect(cut.endsWith(ELLIPSIS)).toBe(true);
    expect(label.startsWith(cut.slice(0, -1))).toBe(true);
    expect(textWidth(cut, 12)).toBeLessThanOrEqual(150);
    expect(textWidth(truncateEnd(label, 150 + 20, 12), 12)).toBeGreaterThan(textWidth(cut, 12));
  });

  it('cuts the middle to fit, keeping more of the end, where the benchmark name is', () => {
    const cut = truncateMiddle(label, 200, 12);
    const [head = '', tail = ''] = cut.split(ELLIPSIS);
    expect(textWidth(cut, 12)).toBeLessThanOrEqual(200);
    expect(label.startsWith(head)).toBe(true);
    expect(label.endsWith(tail)).toBe(true);
    expect(tail.endsWith('bench_7')).toBe(true);
    expect(tail.length).toBeGreaterThan(head.length);
  });

  it('never splits a surrogate pair and degrades to a lone ellipsis', () => {
    const emoji = '🙂'.repeat(30);
    const cut = truncateMiddle(emoji, 60, 12);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(truncateEnd('abcdef', 1, 12)).toBe(ELLIPSIS);
    expect(truncateMiddle('abcdef', 1, 12)).toBe(ELLIPSIS);
  });
});
