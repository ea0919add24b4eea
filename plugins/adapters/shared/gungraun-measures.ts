/**
 * Gungraun (formerly iai-callgrind) metric names and the measure slugs they map to, for the console output
 * (display names) and the JSON summaries (serde variant names). Metrics not listed are dropped.
 */

const lower = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, n.toLowerCase()]));

const CACHE_EVENTS = ['Dr', 'Dw', 'I1mr', 'D1mr', 'D1mw', 'ILmr', 'DLmr', 'DLmw'];
const BRANCH_EVENTS = ['Bc', 'Bcm', 'Bi', 'Bim'];
const CACHE_USE_EVENTS = ['ILdmr', 'DLdmr', 'DLdmw', 'AcCost1', 'AcCost2', 'SpLoss1', 'SpLoss2'];

const CACHEGRIND_STDOUT: Readonly<Record<string, string>> = {
  Instructions: 'instructions',
  'L1 Hits': 'l1-hits',
  'L2 Hits': 'l2-hits',
  'LL Hits': 'll-hits',
  'RAM Hits': 'ram-hits',
  'Total read+write': 'total-read-write',
  'Estimated Cycles': 'estimated-cycles',
  ...lower(CACHE_EVENTS),
  'I1 Miss Rate': 'i1-miss-rate',
  'LLi Miss Rate': 'lli-miss-rate',
  'D1 Miss Rate': 'd1-miss-rate',
  'LLd Miss Rate': 'lld-miss-rate',
  'LL Miss Rate': 'll-miss-rate',
  'L1 Hit Rate': 'l1-hit-rate',
  'LL Hit Rate': 'll-hit-rate',
  'RAM Hit Rate': 'ram-hit-rate',
};

const CALLGRIND_STDOUT: Readonly<Record<string, string>> = {
  ...CACHEGRIND_STDOUT,
  SysCount: 'sys-count',
  SysTime: 'sys-time',
  SysCpuTime: 'sys-cpu-time',
  Ge: 'global-bus-events',
  ...lower(BRANCH_EVENTS),
  ...lower(CACHE_USE_EVENTS),
};

const DHAT_STDOUT: Readonly<Record<string, string>> = {
  'Total bytes': 'total-bytes',
  'Total blocks': 'total-blocks',
  'Total units': 'total-units',
  'Total events': 'total-events',
  'Total lifetimes': 'total-lifetimes',
  'At t-gmax bytes': 'at-t-gmax-bytes',
  'At t-gmax blocks': 'at-t-gmax-blocks',
  'At t-end bytes': 'at-t-end-bytes',
  'At t-end blocks': 'at-t-end-blocks',
  'Reads bytes': 'reads-bytes',
  'Writes bytes': 'writes-bytes',
  'Maximum bytes': 'maximum-bytes',
  'Maximum blocks': 'maximum-blocks',
};

const errorTool = (tool: string): Readonly<Record<string, string>> => ({
  Errors: `${tool}-errors`,
  Contexts: `${tool}-contexts`,
  'Suppressed Errors': `${tool}-suppressed-errors`,
  'Suppressed Contexts': `${tool}-suppressed-contexts`,
});

/** Console output: tool section header (`===== DHAT =====`) -> metric display name -> slug. */
export const STDOUT_TOOLS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  CALLGRIND: CALLGRIND_STDOUT,
  CACHEGRIND: CACHEGRIND_STDOUT,
  DHAT: DHAT_STDOUT,
  MEMCHECK: errorTool('memcheck'),
  HELGRIND: errorTool('helgrind'),
  DRD: errorTool('drd'),
};

const CACHEGRIND_JSON: Readonly<Record<string, string>> = {
  Ir: 'instructions',
  ...lower(CACHE_EVENTS),
  I1MissRate: 'i1-miss-rate',
  LLiMissRate: 'lli-miss-rate',
  D1MissRate: 'd1-miss-rate',
  LLdMissRate: 'lld-miss-rate',
  LLMissRate: 'll-miss-rate',
  L1hits: 'l1-hits',
  LLhits: 'll-hits',
  RamHits: 'ram-hits',
  L1HitRate: 'l1-hit-rate',
  LLHitRate: 'll-hit-rate',
  RamHitRate: 'ram-hit-rate',
  TotalRW: 'total-read-write',
  EstimatedCycles: 'estimated-cycles',
  ...lower(BRANCH_EVENTS),
};

/** JSON summaries: `ToolMetricSummary` variant -> metric variant -> slug (error tools are keyed by tool). */
export const JSON_SUMMARIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Cachegrind: CACHEGRIND_JSON,
  Callgrind: {
    ...CACHEGRIND_JSON,
    SysCount: 'sys-count',
    SysTime: 'sys-time',
    SysCpuTime: 'sys-cpu-time',
    Ge: 'global-bus-events',
    ...lower(CACHE_USE_EVENTS),
  },
  Dhat: {
    TotalUnits: 'total-units',
    TotalEvents: 'total-events',
    TotalBytes: 'total-bytes',
    TotalBlocks: 'total-blocks',
    AtTGmaxBytes: 'at-t-gmax-bytes',
    AtTGmaxBlocks: 'at-t-gmax-blocks',
    AtTEndBytes: 'at-t-end-bytes',
    AtTEndBlocks: 'at-t-end-blocks',
    ReadsBytes: 'reads-bytes',
    WritesBytes: 'writes-bytes',
    TotalLifetimes: 'total-lifetimes',
    MaximumBytes: 'maximum-bytes',
    MaximumBlocks: 'maximum-blocks',
  },
};

/** Error tools report `ErrorTool` summaries; the slug prefix comes from the profile's tool. */
export const ERROR_TOOLS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Memcheck: {
    Errors: 'memcheck-errors',
    Contexts: 'memcheck-contexts',
    SuppressedErrors: 'memcheck-suppressed-errors',
    SuppressedContexts: 'memcheck-suppressed-contexts',
  },
  Helgrind: {
    Errors: 'helgrind-errors',
    Contexts: 'helgrind-contexts',
    SuppressedErrors: 'helgrind-suppressed-errors',
    SuppressedContexts: 'helgrind-suppressed-contexts',
  },
  DRD: {
    Errors: 'drd-errors',
    Contexts: 'drd-contexts',
    SuppressedErrors: 'drd-suppressed-errors',
    SuppressedContexts: 'drd-suppressed-contexts',
  },
};

/** Looks a metric up in a table that is a plain object (so `constructor` and friends are not metrics). */
export function slugOf(table: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
