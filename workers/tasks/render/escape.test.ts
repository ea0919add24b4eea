import { describe, expect, it } from 'vitest';
import { cleanText, escapeXml } from './escape.js';

describe('escapeXml', () => {
  it('escapes markup and both quote styles', () => {
    expect(escapeXml(`a<b>&"c"'d'`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;');
  });

  it('escapes an existing entity again rather than trusting it', () => {
    expect(escapeXml('&lt;')).toBe('&amp;lt;');
  });

  it('leaves other text, including non-ASCII, as it is', () => {
    expect(escapeXml('Größe µs 測定 🙂')).toBe('Größe µs 測定 🙂');
  });
});

describe('cleanText', () => {
  it('replaces code points XML 1.0 forbids, which would make librsvg reject the whole image', () => {
    expect(cleanText('a\u0000b\u0007c\u001Fd\uFFFEe')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
  });

  it('replaces unpaired surrogates but keeps pairs', () => {
    expect(cleanText('x\uD800y')).toBe('x\uFFFDy');
    expect(cleanText('x\uDC00y')).toBe('x\uFFFDy');
    expect(cleanText('x\uD83D\uDE42y')).toBe('x🙂y');
  });

  it('collapses white space runs, as SVG would draw them', () => {
    expect(cleanText('  main\t/\n\n linux  ')).toBe('main / linux');
  });
});
