import { slugify } from '../slug.js';

export interface MeasureDefinition {
  readonly name: string;
  readonly units: string;
}

const count = (name: string, units: string): MeasureDefinition => ({ name, units });
const titled = (slug: string) =>
  slug.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`);

const GUNGRAUN_COUNTS = [
  'dr',
  'dw',
  'i1mr',
  'd1mr',
  'd1mw',
  'ilmr',
  'dlmr',
  'dlmw',
  'bc',
  'bcm',
  'bi',
  'bim',
  'ildmr',
  'dldmr',
  'dldmw',
  'accost1',
  'accost2',
  'sploss1',
  'sploss2',
];
const RATES = [
  'i1-miss-rate',
  'lli-miss-rate',
  'd1-miss-rate',
  'lld-miss-rate',
  'll-miss-rate',
  'l1-hit-rate',
  'll-hit-rate',
  'ram-hit-rate',
];
const ERROR_TOOLS = ['memcheck', 'helgrind', 'drd'];

/**
 * Measures Benchtrack knows, by slug: the defaults (latency, throughput, build time, file size) and every
 * measure a built-in adapter emits. A report or threshold that names one creates it with this name and these
 * units; any other measure is created on the fly with its key as name and "units" as units.
 */
export const BUILT_IN_MEASURES: Readonly<Record<string, MeasureDefinition>> = {
  latency: count('Latency', 'nanoseconds (ns)'),
  throughput: count('Throughput', 'operations / second (ops/s)'),
  'build-time': count('Build Time', 'seconds (s)'),
  'file-size': count('File Size', 'bytes (B)'),
  instructions: count('Instructions', 'instructions'),
  'l1-accesses': count('L1 Accesses', 'accesses'),
  'l2-accesses': count('L2 Accesses', 'accesses'),
  'ram-accesses': count('RAM Accesses', 'accesses'),
  'estimated-cycles': count('Estimated Cycles', 'cycles'),
  'l1-hits': count('L1 Hits', 'hits'),
  'l2-hits': count('L2 Hits', 'hits'),
  'll-hits': count('LL Hits', 'hits'),
  'ram-hits': count('RAM Hits', 'hits'),
  'total-read-write': count('Total Read+Write', 'accesses'),
  'global-bus-events': count('Global Bus Events', 'events'),
  'sys-count': count('System Calls', 'calls'),
  'sys-time': count('System Time', 'nanoseconds (ns)'),
  'sys-cpu-time': count('System CPU Time', 'nanoseconds (ns)'),
  ...Object.fromEntries(GUNGRAUN_COUNTS.map((slug) => [slug, count(slug.toUpperCase(), 'events')])),
  ...Object.fromEntries(RATES.map((slug) => [slug, count(titled(slug), 'percent (%)')])),
  'total-bytes': count('Total Bytes', 'bytes (B)'),
  'total-blocks': count('Total Blocks', 'blocks'),
  'total-units': count('Total Units', 'units'),
  'total-events': count('Total Events', 'events'),
  'total-lifetimes': count('Total Lifetimes', 'instructions'),
  'at-t-gmax-bytes': count('At t-gmax Bytes', 'bytes (B)'),
  'at-t-gmax-blocks': count('At t-gmax Blocks', 'blocks'),
  'at-t-end-bytes': count('At t-end Bytes', 'bytes (B)'),
  'at-t-end-blocks': count('At t-end Blocks', 'blocks'),
  'reads-bytes': count('Reads Bytes', 'bytes (B)'),
  'writes-bytes': count('Writes Bytes', 'bytes (B)'),
  'maximum-bytes': count('Maximum Bytes', 'bytes (B)'),
  'maximum-blocks': count('Maximum Blocks', 'blocks'),
  ...Object.fromEntries(
    ERROR_TOOLS.flatMap((tool) =>
      ['errors', 'contexts', 'suppressed-errors', 'suppressed-contexts'].map((what) => [
        `${tool}-${what}`,
        count(titled(`${tool}-${what}`), what.endsWith('errors') ? 'errors' : 'contexts'),
      ]),
    ),
  ),
  allocated: count('Allocated', 'bytes (B)'),
  'gen0-collects': count('Gen 0 Collects', 'collections'),
  'gen1-collects': count('Gen 1 Collects', 'collections'),
  'gen2-collects': count('Gen 2 Collects', 'collections'),
  'total-operations': count('Total Operations', 'operations'),
  'b-op': count('B/op', 'bytes / operation (B/op)'),
  'allocs-op': count('allocs/op', 'allocations / operation'),
  'mb-s': count('MB/s', 'megabytes / second (MB/s)'),
};

/** Name, slug and units for a measure first seen as `key` (a slug like `latency` or a name like `B/op`). */
export function measureFor(key: string): MeasureDefinition & { slug: string } {
  const slug = slugify(key) || 'measure';
  const known = BUILT_IN_MEASURES[slug];
  if (known && (key === slug || key === known.name)) return { ...known, slug };
  return { name: key, slug, units: 'units' };
}
