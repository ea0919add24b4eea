import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedSteps } from '../helpers/steps.js';

// perf/img marks regressions: 60 daily reports, "slow" 20% slower from version 40, "fast" 20% faster from 45.
let t: TestApp;
let ada: Session;
const img = (benchmark: string, extra = '') =>
  `/v0/projects/marks/perf/img?branches=main&testbeds=linux&benchmarks=${benchmark}&measures=latency${extra}`;

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Marks', visibility: 'public' });
  await seedSteps(t, ada, {
    project: 'marks',
    benchmarks: ['slow', 'fast'],
    level: (name, version) =>
      name === 'slow' && version >= 40 ? 1.2 : name === 'fast' && version >= 45 ? 0.8 : 1,
    seed: 3,
  });
});
afterAll(() => t.close());

/** The x of each pixel column that holds at least `min` pixels near `rgb` (each channel within 40). */
async function columnsOf(png: Buffer, rgb: readonly number[], min: number): Promise<number[]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const counts = new Array<number>(info.width).fill(0);
  for (let p = 0; p < info.width * info.height; p++) {
    const at = p * info.channels;
    if (rgb.every((value, c) => Math.abs((data[at + c] as number) - value) <= 40)) counts[p % info.width]!++;
  }
  return counts.flatMap((count, x) => (count >= min ? [x] : []));
}

async function png(url: string): Promise<Buffer> {
  const response = await t.app.inject({ method: 'GET', url, headers: bearer(ada.token) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('image/png');
  return response.rawPayload;
}

describe('regressions on perf images', () => {
  it('draws a red line from top to bottom of the plot at the first bad version of a regression, only when asked', async () => {
    const regressions = await t.app.inject({
      method: 'GET',
      url: '/v0/projects/marks/regressions?status=open',
    });
    expect(
      regressions
        .json()
        .map((r: { kind: string }) => r.kind)
        .sort(),
    ).toEqual(['improvement', 'regression']);
    const RED = [0xdc, 0x26, 0x26];
    // the plot area of a 1200 x 600 image is most of its height: a marker spans well over 300 pixels
    const marked = await columnsOf(await png(img('slow', '&regressions=true&x_axis=version')), RED, 300);
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.length).toBeLessThanOrEqual(3);
    expect(await columnsOf(await png(img('slow', '&x_axis=version')), RED, 300)).toEqual([]);
    // at version 40 of 0..59: two thirds of the way along the x axis, give or take the margins
    const at = marked[0]! / 1200;
    expect(at).toBeGreaterThan(0.55);
    expect(at).toBeLessThan(0.75);
    // the series without a regression has no red marker
    expect(await columnsOf(await png(img('fast', '&regressions=true')), RED, 300)).toEqual([]);
  });

  it('draws an improvement in green, in the SVG too, and says so in the ETag', async () => {
    const GREEN = [0x05, 0x96, 0x69];
    expect((await columnsOf(await png(img('fast', '&regressions=true')), GREEN, 300)).length).toBeGreaterThan(
      0,
    );
    const svg = await t.app.inject({ method: 'GET', url: img('fast', '&regressions=true&format=svg') });
    expect(svg.body).toContain('class="regression" fill="#059669"');
    const plain = await t.app.inject({ method: 'GET', url: img('fast', '&format=svg') });
    expect(plain.body).not.toContain('class="regression"');
    expect(svg.headers.etag).not.toBe(plain.headers.etag);
  });
});
