import { gunzipSync } from 'node:zlib';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import {
  ANONYMOUS,
  PerfService,
  perfImageQuerySchema,
  relativeWindow,
  type ServiceContext,
} from '../../core/index.js';

let t: TestApp;
let ada: Session;
const P = '/v0/projects/perf';
const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Perf' });
  await createProject(t, ada, 'ada-lovelace', { name: 'Secret', visibility: 'private' });
  for (let i = 0; i < 12; i++) {
    const values = { 'sort, quick': 100 + (i % 3) + (i >= 10 ? 40 : 0), parse: 200 + (i % 2) };
    await post('perf', 'main', i, values, [{ ...values, parse: values.parse + 1 }]);
  }
  await post('secret', 'main', 0, { x: 1 });
});
afterAll(() => t.close());

async function post(
  project: string,
  branch: string,
  n: number,
  values: Record<string, number>,
  more: Record<string, number>[] = [],
  extra: object = {},
) {
  const bmf = (v: Record<string, number>) =>
    JSON.stringify(Object.fromEntries(Object.entries(v).map(([k, value]) => [k, { latency: { value } }])));
  const response = await t.app.inject({
    method: 'POST',
    url: `/v0/projects/${project}/reports`,
    headers: bearer(ada.token),
    payload: {
      branch,
      testbed: 'linux',
      start_time: day(n).toISOString(),
      end_time: new Date(day(n).getTime() + 60_000).toISOString(),
      results: [bmf(values), ...more.map(bmf)],
      settings: { adapter: 'json' },
      thresholds: { models: { latency: { test: 't_test', upper_boundary: 0.99 } } },
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });
const query = 'branches=main&testbeds=linux&benchmarks=parse,sort-quick,nothing-here&measures=latency';

describe('perf query', () => {
  it('answers every permutation with data in one document, points in version, time and iteration order', async () => {
    await t.app.inject({
      method: 'POST',
      url: `${P}/benchmarks`,
      headers: bearer(ada.token),
      payload: { name: 'nothing here' },
    });
    const response = await get(`${P}/perf?${query}`);
    expect(response.statusCode).toBe(200);
    const perf = response.json();
    expect(perf.project.slug).toBe('perf');
    expect(perf.results.map((r: { benchmark: { name: string } }) => r.benchmark.name)).toEqual([
      'parse',
      'sort, quick',
    ]);
    const points = perf.results[1].metrics as {
      iteration: number;
      version: { number: number };
      metric: { value: number };
      boundary: unknown;
      alert: unknown;
      threshold: unknown;
    }[];
    expect(points).toHaveLength(24);
    expect(points.slice(0, 4).map((p) => [p.version.number, p.iteration])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    expect(points[0]).toMatchObject({
      threshold: { model: { test: 't_test' } },
      boundary: { baseline: null },
    });
    const alerted = points.filter((p) => p.alert !== null);
    expect(alerted.length).toBeGreaterThan(0);
    expect(alerted[0]).toMatchObject({ metric: { value: 141 }, alert: { limit: 'upper', status: 'active' } });
    // The same report, metric and alert UUIDs as the alert endpoint shows.
    const alert = (await get(`${P}/alerts/${(alerted[0] as { alert: { uuid: string } }).alert.uuid}`)).json();
    expect(alerted[0]).toMatchObject({ report: alert.report, metric: { uuid: alert.metric.uuid } });
    expect(alert.report).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('leaves the threshold models out of every point when asked, keeping boundaries and alerts', async () => {
    const full = (await get(`${P}/perf?${query}`)).json();
    const lean = await get(`${P}/perf?${query}&threshold_models=false`);
    expect(lean.statusCode).toBe(200);
    const body = lean.json();
    const strip = (point: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(point).filter(([key]) => key !== 'threshold'));
    expect(body.results[1].metrics).toEqual(full.results[1].metrics.map(strip));
    expect(body.results[1].metrics[0]).not.toHaveProperty('threshold');
    expect(full.results[1].metrics[0].threshold).not.toBeNull();
    expect(body.results[1].metrics.some((p: { alert: unknown }) => p.alert !== null)).toBe(true);
    expect(lean.body.length).toBeLessThan(JSON.stringify(full).length / 1.5);
    const bad = await get(`${P}/perf?${query}&threshold_models=maybe`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('threshold_models');
  });

  it('gzips a large answer for a client that accepts it, and only then', async () => {
    const plain = await get(`${P}/perf?${query}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.rawPayload.byteLength).toBeGreaterThan(8 * 1024);
    const zipped = await get(`${P}/perf?${query}`, { 'accept-encoding': 'br;q=1, gzip;q=0.8' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.byteLength).toBeLessThan(plain.rawPayload.byteLength / 4);
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    const refused = await get(`${P}/perf?${query}`, { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('tags the gzipped answer apart from the plain one, and revalidates either', async () => {
    const plain = await get(`${P}/perf?${query}`);
    expect(plain.rawPayload.byteLength).toBeGreaterThan(8 * 1024);
    const zipped = await get(`${P}/perf?${query}`, { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    // strong tags name bytes: the two representations must not share one (RFC 9110 8.8.1)
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
    expect(zipped.headers.etag).toBe((plain.headers.etag as string).replace(/"$/, '-gzip"'));
    const cases: [string, string][] = [
      [zipped.headers.etag as string, 'gzip'],
      [plain.headers.etag as string, 'gzip'],
      [zipped.headers.etag as string, 'identity'],
    ];
    for (const [held, encoding] of cases) {
      const again = await get(`${P}/perf?${query}`, { 'if-none-match': held, 'accept-encoding': encoding });
      expect(again.statusCode, held).toBe(304);
      expect(again.headers.etag).toBe(held);
    }
  });

  it('answers 304 to an If-None-Match of the unchanged answer, and anew after a new report', async () => {
    // a branch of its own, so the other tests' answers stay as they are
    for (let i = 0; i < 3; i++) await post('perf', 'etag', i, { parse: 10 + i });
    const q = 'branches=etag&testbeds=linux&benchmarks=parse&measures=latency';
    const first = await get(`${P}/perf?${q}`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers.vary).toBe('Accept, Accept-Encoding');
    const again = await get(`${P}/perf?${q}`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.byteLength).toBe(0);
    expect(again.headers.etag).toBe(etag);
    for (const header of [`W/${etag}`, `"other", ${etag}`, '*'])
      expect((await get(`${P}/perf?${q}`, { 'if-none-match': header })).statusCode).toBe(304);
    // each format and field set is its own answer
    const arrow = await get(`${P}/perf?${q}&format=arrow`);
    const plot = await get(`${P}/perf?${q}&format=arrow&fields=plot`);
    const csv = await get(`${P}/perf?${q}`, { accept: 'text/csv' });
    const lean = await get(`${P}/perf?${q}&threshold_models=false`);
    const tags = [etag, ...[arrow, plot, csv, lean].map((r) => r.headers.etag as string)];
    expect(new Set(tags).size).toBe(5);
    expect((await get(`${P}/perf?${q}`, { 'if-none-match': tags[2]! })).statusCode).toBe(200);
    await post('perf', 'etag-other', 0, { parse: 1 });
    expect((await get(`${P}/perf?${q}`, { 'if-none-match': etag })).statusCode).toBe(304);
    await post('perf', 'etag', 3, { parse: 13 });
    const changed = await get(`${P}/perf?${q}`, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().results[0].metrics).toHaveLength(first.json().results[0].metrics.length + 1);
  });

  it.runIf(onPostgres)(
    'gives the same ETag in every API process on one PostgreSQL database, and a new one in each after a write in any',
    async () => {
      const other = await createTestApp({ database: { url: t.config.database.url! } });
      try {
        await post('perf', 'etag-pg', 0, { parse: 1 });
        const q = 'branches=etag-pg&testbeds=linux&benchmarks=parse&measures=latency&format=arrow';
        const fromOther = (headers: Record<string, string> = {}) =>
          other.app.inject({ method: 'GET', url: `${P}/perf?${q}`, headers });
        const etag = (await get(`${P}/perf?${q}`)).headers.etag as string;
        expect((await fromOther()).headers.etag).toBe(etag);
        expect((await fromOther({ 'if-none-match': etag })).statusCode).toBe(304);
        await post('perf', 'etag-pg', 1, { parse: 2 });
        const after = await fromOther({ 'if-none-match': etag });
        expect(after.statusCode).toBe(200);
        expect(after.headers.etag).not.toBe(etag);
        expect((await get(`${P}/perf?${q}`)).headers.etag).toBe(after.headers.etag);
      } finally {
        await other.close();
      }
    },
  );

  it('filters by time in epoch milliseconds', async () => {
    const perf = (
      await get(`${P}/perf?${query}&start_time=${day(3).getTime()}&end_time=${day(5).getTime() + 60_000}`)
    ).json();
    expect(perf.start_time).toBe(day(3).toISOString());
    expect(perf.results[0].metrics.map((p: { version: { number: number } }) => p.version.number)).toEqual([
      3, 3, 4, 4, 5, 5,
    ]);
  });

  it('follows a branch head, including the versions inherited from its start point, or an earlier head', async () => {
    const first = await post('perf', 'feature', 20, { parse: 300 }, [], { start_point: { branch: 'main' } });
    const oldHead = first.branch.head.uuid;
    await post('perf', 'feature', 21, { parse: 301 }, [], { start_point: { branch: 'main', reset: true } });
    const current = (
      await get(`${P}/perf?branches=feature&testbeds=linux&benchmarks=parse&measures=latency`)
    ).json();
    expect(current.results[0].metrics.length).toBe(24 + 1);
    const earlier = (
      await get(
        `${P}/perf?branches=feature&heads=${oldHead}&testbeds=linux&benchmarks=parse&measures=latency`,
      )
    ).json();
    expect(earlier.results[0].branch.head.uuid).toBe(oldHead);
    expect(earlier.results[0].metrics.at(-1).metric.value).toBe(300);
  });

  it('refuses more than 255 permutations, naming the count', async () => {
    const many = Array.from({ length: 64 }, (_, i) => `b${i}`).join(',');
    const response = await get(
      `${P}/perf?branches=main&testbeds=linux,l2&benchmarks=${many}&measures=latency,throughput`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('this one has 256 (1 x 2 x 64 x 2)');
  });

  it.each([
    ['branches=main&testbeds=linux&benchmarks=parse&measures=a,b,c', 400, 'must list at most two measures'],
    ['branches=main&testbeds=linux&measures=latency', 400, 'querystring.benchmarks'],
    ['branches=main&testbeds=linux&benchmarks=parse,,sort&measures=latency', 400, 'without empty entries'],
    ['branches=main&testbeds=linux&benchmarks=nope&measures=latency', 404, 'benchmark'],
    ['branches=ghost&testbeds=linux&benchmarks=parse&measures=latency', 404, 'branch "ghost" not found'],
  ])('rejects %s', async (q, status, message) => {
    const response = await get(`${P}/perf?${q}`);
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toContain(message);
  });

  it('serves public projects without a token and hides private ones', async () => {
    expect(
      (await get(`/v0/projects/secret/perf?branches=main&testbeds=linux&benchmarks=x&measures=latency`))
        .statusCode,
    ).toBe(404);
    const owner = await get(
      `/v0/projects/secret/perf?branches=main&testbeds=linux&benchmarks=x&measures=latency`,
      bearer(ada.token),
    );
    expect(owner.json().results[0].metrics).toHaveLength(1);
  });

  it('serves CSV with quoted names, chosen by format or the Accept header', async () => {
    const response = await get(`${P}/perf?${query}`, { accept: 'text/csv' });
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'branch,testbed,benchmark,measure,report,iteration,start_time,end_time,version,hash,metric,value,lower_value,upper_value,baseline,lower_limit,upper_limit,alert_limit,alert_status',
    );
    expect(lines).toHaveLength(1 + 48);
    expect(lines.find((line) => line.includes('sort, quick'))).toMatch(/^main,linux,"sort, quick",Latency,/);
  });

  it('serves an Arrow IPC stream', async () => {
    const response = await get(`${P}/perf?${query}&format=arrow`);
    expect(response.headers['content-type']).toBe('application/vnd.apache.arrow.stream');
    const table = tableFromIPC(response.rawPayload);
    expect(table.numRows).toBe(48);
    expect(table.schema.fields.map((f) => f.name)).toContain('upper_limit');
    expect(table.getChild('benchmark')?.get(0)).toBe('parse');
    expect(table.getChild('value')?.get(0)).toBe(200);
    // repeated texts are dictionary-encoded; `series` indexes the series' JSON in the schema's metadata
    expect(String(table.schema.fields.find((f) => f.name === 'report')?.type)).toBe(
      'Dictionary<Int32, Utf8>',
    );
    const series = JSON.parse(table.schema.metadata.get('benchtrack.series')!) as {
      benchmark: { name: string; uuid: string };
      measure: { units: string };
    }[];
    const first = series[table.getChild('series')!.get(0) as number]!;
    expect(first.benchmark.name).toBe('parse');
    expect(first.benchmark.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.measure.units).toBe('nanoseconds (ns)');
  });

  it('leaves the columns a plot has no use for out of an Arrow answer with fields=plot, and only there', async () => {
    const all = tableFromIPC((await get(`${P}/perf?${query}&format=arrow`)).rawPayload);
    const response = await get(`${P}/perf?${query}&format=arrow&fields=plot`);
    expect(response.statusCode).toBe(200);
    const plot = tableFromIPC(response.rawPayload);
    const names = plot.schema.fields.map((f) => f.name);
    for (const gone of ['branch', 'testbed', 'benchmark', 'measure', 'end_time', 'metric'])
      expect(names).not.toContain(gone);
    expect(names).toEqual(all.schema.fields.map((f) => f.name).filter((name) => names.includes(name)));
    expect(names).toHaveLength(all.schema.fields.length - 6);
    expect(plot.numRows).toBe(48);
    for (const name of names) expect(plot.getChild(name)!.toJSON()).toEqual(all.getChild(name)!.toJSON());
    expect(plot.schema.metadata.get('benchtrack.series')).toBe(all.schema.metadata.get('benchtrack.series'));
    const refused = await get(`${P}/perf?${query}&format=csv&fields=plot`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('fields=plot');
    expect((await get(`${P}/perf?${query}&fields=lean`)).statusCode).toBe(400);
  });

  it("leaves each point's metric UUID and end time out of a JSON answer with fields=plot, and nothing else", async () => {
    const all = await get(`${P}/perf?${query}`);
    const response = await get(`${P}/perf?${query}&fields=plot`);
    expect(response.statusCode).toBe(200);
    const plot = response.json();
    expect(plot.results.flatMap((s: { metrics: unknown[] }) => s.metrics)).toHaveLength(48);
    const lean = all.json();
    for (const series of lean.results)
      for (const point of series.metrics) {
        delete point.end_time;
        delete point.metric.uuid;
      }
    expect(plot).toEqual(lean);
    expect(response.body).toBe(JSON.stringify(lean));
    expect(response.headers.etag).not.toBe(all.headers.etag);
  });
});

describe('perf images', () => {
  const img = 'branches=main&testbeds=linux&benchmarks=parse,sort-quick&measures=latency&title=Latency';

  it('renders a PNG with an ETag, answers 304 for an unchanged image, and a new ETag after new data', async () => {
    const first = await get(`${P}/perf/img?${img}`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.rawPayload.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const etag = first.headers.etag as string;
    expect((await get(`${P}/perf/img?${img}`, { 'if-none-match': etag })).statusCode).toBe(304);
    // as for perf answers: a weak comparison, and any tag of a list
    const listed = `"other", W/${etag}`;
    expect((await get(`${P}/perf/img?${img}`, { 'if-none-match': listed })).statusCode).toBe(304);
    expect((await get(`${P}/perf/img?${img}`)).headers.etag).toBe(etag);
    await post('perf', 'main', 30, { parse: 205 });
    const after = await get(`${P}/perf/img?${img}`, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('gives a new ETag when a point changes and the number of points does not (a report replaced)', async () => {
    const q = 'branches=etag&testbeds=linux&benchmarks=parse&measures=latency';
    await post('perf', 'etag', 40, { parse: 300 });
    const newest = await post('perf', 'etag', 41, { parse: 310 });
    const before = await get(`${P}/perf/img?${q}`);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${P}/reports/${newest.uuid}`,
      headers: bearer(ada.token),
    });
    expect(removed.statusCode).toBe(204);
    await post('perf', 'etag', 41, { parse: 390 });
    const after = await get(`${P}/perf/img?${q}`, { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('draws a new image with a new ETag after a benchmark or the measure is renamed (the legend and axis change)', async () => {
    const q = 'branches=main&testbeds=linux&benchmarks=parse&measures=latency&format=svg';
    const rename = async (path: string, name: string) => {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `${P}/${path}`,
        headers: bearer(ada.token),
        payload: { name },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    const before = await get(`${P}/perf/img?${q}`);
    expect(before.body).toContain('main / linux / parse');
    await rename('benchmarks/parse', 'Parse JSON');
    const renamed = await get(`${P}/perf/img?${q}`, { 'if-none-match': before.headers.etag as string });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.body).toContain('main / linux / Parse JSON');
    await rename('measures/latency', 'Wall time');
    const measure = await get(`${P}/perf/img?${q}`);
    expect(measure.headers.etag).not.toBe(renamed.headers.etag);
    expect(measure.body).toContain('Wall time');
    await rename('benchmarks/parse', 'parse');
    await rename('measures/latency', 'Latency');
    expect((await get(`${P}/perf/img?${q}`)).headers.etag).toBe(before.headers.etag);
  });

  it('renders outside the database read: images waiting on the renderer hold no reader connection', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // the service as the container builds it, with a renderer that waits until the test releases it
    const perf = new PerfService({
      storage: t.storage,
      renderImage: async () => {
        await gate;
        return new Uint8Array([1]);
      },
    } as unknown as ServiceContext);
    const keys = perfImageQuerySchema.parse({
      branches: 'main',
      testbeds: 'linux',
      benchmarks: 'parse',
      measures: 'latency',
    });
    // more renders than the storage has reader connections
    const images = Array.from({ length: 8 }, (_, i) =>
      perf.image(ANONYMOUS, 'perf', keys, { x_axis: 'date_time', y_axis: 'auto', title: `image ${i}` }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const read = t.storage.read((r) => r.projects.count({}));
    const outcome = await Promise.race([
      read.then(() => 'read answered'),
      new Promise((resolve) => setTimeout(() => resolve('read blocked'), 5_000)),
    ]);
    release();
    await Promise.all([...images, read]);
    expect(outcome).toBe('read answered');
  });

  it('draws a relative window (window=seconds up to now) as the same image as its times, for README embeds', async () => {
    const window = 10 * 365 * 86_400;
    const times = () => {
      const { start_time, end_time } = relativeWindow(window, new Date());
      return `${img}&start_time=${start_time}&end_time=${end_time}`;
    };
    const before = times();
    const relative = await get(`${P}/perf/img?${img}&window=${window}`);
    const after = times();
    expect(relative.statusCode, relative.body).toBe(200);
    expect(relative.headers['content-type']).toBe('image/png');
    const explicit = [(await get(`${P}/perf/img?${before}`)).headers.etag];
    if (after !== before) explicit.push((await get(`${P}/perf/img?${after}`)).headers.etag);
    expect(explicit).toContain(relative.headers.etag);

    const both = await get(`${P}/perf/img?${img}&window=${window}&start_time=0`);
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe(
      'querystring.window: cannot be combined with start_time or end_time: give a window or times, not both',
    );
  });

  it('keeps private images private', async () => {
    const q = 'branches=main&testbeds=linux&benchmarks=x&measures=latency';
    expect((await get(`/v0/projects/secret/perf/img?${q}`)).statusCode).toBe(404);
    const owner = await get(`/v0/projects/secret/perf/img?${q}`, bearer(ada.token));
    expect(owner.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
  });

  it('refuses more than 8 lines and more than one measure', async () => {
    const names = Array.from({ length: 9 }, (_, i) => `line-${i}`);
    for (const name of names)
      await t.app.inject({
        method: 'POST',
        url: `${P}/benchmarks`,
        headers: bearer(ada.token),
        payload: { name },
      });
    await post('perf', 'main', 40, Object.fromEntries(names.map((n) => [n, 1])));
    const nine = await get(
      `${P}/perf/img?branches=main&testbeds=linux&benchmarks=${names.join(',')}&measures=latency`,
    );
    expect(nine.statusCode).toBe(400);
    expect(nine.json().message).toContain('at most 8 lines; this selection has 9');
    const two = await get(
      `${P}/perf/img?branches=main&testbeds=linux&benchmarks=parse&measures=latency,throughput`,
    );
    expect(two.json().message).toContain('exactly one measure');
  });
});

describe('pinned plots', () => {
  const plot = (title: string, extra: object = {}) => ({
    title,
    window: 400 * 86_400,
    branches: ['main'],
    testbeds: ['linux'],
    benchmarks: ['parse'],
    measures: ['latency'],
    upper_boundary: true,
    ...extra,
  });
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(ada.token), ...(payload ? { payload } : {}) });
  const titles = async () =>
    ((await call('GET', `${P}/plots`)).json() as { title: string; index: number }[]).map(
      (p) => `${p.index}:${p.title}`,
    );

  it('pins, orders, moves and unpins plots', async () => {
    const a = (await call('POST', `${P}/plots`, plot('A'))).json();
    await call('POST', `${P}/plots`, plot('B'));
    const c = (await call('POST', `${P}/plots`, plot('C', { index: 0 }))).json();
    expect(c).toMatchObject({
      index: 0,
      x_axis: 'date_time',
      y_axis: 'auto',
      window: 400 * 86_400,
      upper_boundary: true,
    });
    expect(await titles()).toEqual(['0:C', '1:A', '2:B']);
    await call('PATCH', `${P}/plots/${c.uuid}`, { index: 2, title: 'C moved' });
    expect(await titles()).toEqual(['0:A', '1:B', '2:C moved']);
    expect((await call('DELETE', `${P}/plots/${a.uuid}`)).statusCode).toBe(204);
    expect(await titles()).toEqual(['0:B', '1:C moved']);
    const cleared = (await call('PATCH', `${P}/plots/${c.uuid}`, { title: null })).json();
    expect(cleared.title).toBeNull();
  });

  it('renders the image of a pinned plot, without a token on a public project', async () => {
    const created = (await call('POST', `${P}/plots`, plot('Image'))).json();
    const image = await get(`${P}/plots/${created.uuid}/img`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
  });

  it('names missing dimensions and stops at 64 plots', async () => {
    const missing = await call('POST', `${P}/plots`, plot('Bad', { benchmarks: ['ghost'] }));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('benchmark "ghost" not found in this project');
    const count = (await call('GET', `${P}/plots`)).json().length;
    for (let i = count; i < 64; i++)
      expect((await call('POST', `${P}/plots`, plot(`P${i}`))).statusCode).toBe(201);
    const full = await call('POST', `${P}/plots`, plot('one too many'));
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toContain('at most 64 pinned plots');
  });
});
