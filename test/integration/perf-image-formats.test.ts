import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

// Issue 19 item 6: perf images in a dark theme and as SVG besides the light PNG.
let t: TestApp;
let ada: Session;
const P = '/v0/projects/formats';
const POINTS = 12;
const img = `${P}/perf/img?branches=main&testbeds=linux&benchmarks=decode,encode&measures=latency&title=Latency`;

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Formats' });
  for (let n = 0; n < POINTS; n++) {
    const start = new Date(Date.UTC(2026, 0, 1 + n));
    const response = await t.app.inject({
      method: 'POST',
      url: `${P}/reports`,
      headers: bearer(ada.token),
      payload: {
        branch: 'main',
        testbed: 'linux',
        start_time: start.toISOString(),
        end_time: new Date(start.getTime() + 60_000).toISOString(),
        results: [
          JSON.stringify({
            decode: { latency: { value: 100 + (n % 3) } },
            encode: { latency: { value: 300 + (n % 4) * 5 } },
          }),
        ],
        settings: { adapter: 'json' },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

/** Mean of the red, green and blue channels over every pixel (0 black to 255 white), and the top-left pixel. */
async function brightness(png: Buffer): Promise<{ mean: number; corner: number[] }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (const value of data) sum += value;
  return { mean: sum / data.length, corner: [...data.subarray(0, info.channels)] };
}

describe('perf image formats and themes', () => {
  it('answers an SVG document for format=svg: well-formed XML with every series drawn, sandboxed', async () => {
    const response = await get(`${img}&format=svg`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'");
    const svg = response.body;
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1200" height="600"/);
    expect(svg.endsWith('</svg>')).toBe(true);
    // librsvg parses with libxml2 and refuses anything that is not well-formed XML
    const meta = await sharp(Buffer.from(svg)).metadata();
    expect(meta).toMatchObject({ format: 'svg', width: 1200, height: 600 });
    // each series is a line in its own color, with a dot on each of its points (a sparse line)
    const colors = ['#0072B2', '#D55E00'];
    for (const color of colors) {
      expect(svg).toMatch(new RegExp(`<g stroke="${color}"><path d="M[^"]+"/></g>`));
      const dots = new RegExp(`<g fill="${color}">((?:<circle [^>]+/>)+)</g>`).exec(svg);
      expect(dots?.[1]?.match(/<circle /g)).toHaveLength(POINTS);
    }
    const png = await get(img);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers.etag).not.toBe(response.headers.etag);
  });

  it('draws theme=dark on a dark background, and the default on white (pixels read back)', async () => {
    const dark = await get(`${img}&theme=dark`);
    expect(dark.statusCode, dark.body).toBe(200);
    expect(dark.headers['content-type']).toBe('image/png');
    const light = await get(img);
    const darkPixels = await brightness(dark.rawPayload);
    const lightPixels = await brightness(light.rawPayload);
    expect(darkPixels.corner).toEqual([0x0d, 0x11, 0x17]);
    expect(darkPixels.mean).toBeLessThan(40);
    expect(lightPixels.corner).toEqual([255, 255, 255]);
    expect(lightPixels.mean).toBeGreaterThan(215);
    expect(dark.headers.etag).not.toBe(light.headers.etag);
    const darkSvg = await get(`${img}&theme=dark&format=svg`);
    expect(darkSvg.body).toContain('<rect width="1200" height="600" fill="#0d1117"/>');
  });

  it('refuses an unknown theme or format, naming the parameter and the choices', async () => {
    const theme = await get(`${img}&theme=blue`);
    expect(theme.statusCode).toBe(400);
    expect(theme.json().message).toMatch(/theme.*light.*dark/);
    const format = await get(`${img}&format=gif`);
    expect(format.statusCode).toBe(400);
    expect(format.json().message).toMatch(/format.*png.*svg/);
  });
});
