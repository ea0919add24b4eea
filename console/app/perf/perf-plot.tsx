import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { YAxis } from '../api/perf-types.js';
import { useColorScheme } from '../lib/color-scheme.js';
import { navigate } from '../router.js';
import { movePoint } from './plot-keys.js';
import { drawAlerts, drawBands, drawChanges, drawHighlight, drawRegressions } from './draw.js';
import { options } from './plot-options.js';
import type { PlotData } from './series.js';
import { Tooltip } from './tooltip.js';

interface Hover {
  readonly series: number;
  readonly idx: number;
  readonly left: number;
  readonly top: number;
}

/** The visible series point nearest the cursor, searching a few x places either side of its index. */
function nearest(
  u: uPlot,
  data: PlotData,
  hidden: ReadonlySet<number>,
  left: number,
  top: number,
): Hover | null {
  const idx = u.posToIdx(left);
  let best: Hover | null = null;
  let bestDistance = Infinity;
  const xs = data.xs;
  data.series.forEach((s, index) => {
    if (hidden.has(index)) return;
    const scale = s.axis === 0 ? 'y' : 'y2';
    for (let step = 0; step < 64; step++) {
      for (const i of step === 0 ? [idx] : [idx - step, idx + step]) {
        const v = s.y[i];
        if (v === null || v === undefined) continue;
        const x = u.valToPos(xs[i]!, 'x');
        const y = u.valToPos(v, scale);
        const d = (x - left) ** 2 + (y - top) ** 2;
        if (d < bestDistance) {
          bestDistance = d;
          best = { series: index, idx: i, left: x, top: y };
        }
      }
      if (best && best.series === index) break;
    }
  });
  return best;
}

const MOVE_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

/** The title of a y axis, written vertically beside the plot. */
function AxisTitle({ data, axis }: { data: PlotData; axis: 0 | 1 }) {
  const m = data.measures[axis];
  return m ? (
    <div class={`axis-title axis-${axis === 0 ? 'left' : 'right'}`}>{`${m.name} · ${m.units}`}</div>
  ) : null;
}

/**
 * An interactive perf plot (uPlot: canvas, stays smooth with 100,000 points): drag to zoom, double-click to
 * zoom out, hover or arrow keys for a point's details, click or Enter to pin them and follow the report link.
 */
export function PerfPlot({
  data,
  hidden,
  bounds,
  yAxis,
  height = 420,
  reportHref,
  label,
  highlight,
  emphasis,
  zoom,
  onZoom,
}: {
  data: PlotData;
  hidden: ReadonlySet<number>;
  bounds: boolean;
  yAxis: YAxis;
  height?: number;
  /** Reports whose points are ringed. */
  highlight?: string | readonly string[] | undefined;
  reportHref: (uuid: string) => string;
  label: string;
  /** A line to emphasise (the key's row under the pointer), as a point shown in the details is. */
  emphasis?: number | undefined;
  /** The x range to show when the plot is drawn (a zoom kept in the URL). */
  zoom?: readonly [number, number] | undefined;
  /** Told the x range a person zoomed to, or undefined when they zoomed out. */
  onZoom?: (zoom: readonly [number, number] | undefined) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const hiddenRef = useRef(hidden);
  const onZoomRef = useRef(onZoom);
  onZoomRef.current = onZoom;
  hiddenRef.current = hidden;
  const pinnedRef = useRef(false);
  const scheme = useColorScheme();
  const [hover, setHover] = useState<Hover | null>(null);
  const [pinned, setPinned] = useState(false);
  const [zoomed, setZoomed] = useState(false);
  pinnedRef.current = pinned;

  useEffect(() => {
    const el = box.current!;
    const visible = (i: number) => !hiddenRef.current.has(i);
    let settled = false;
    const hooks: uPlot.Hooks.Arrays = {
      drawClear: [(u) => bounds && drawBands(u, data.series, visible)],
      draw: [
        (u) => {
          // How many change points are drawn, for tools and tests (the markers themselves are canvas).
          el.dataset.changeMarkers = String(drawChanges(u, data.series, visible));
          el.dataset.regressionMarkers = String(drawRegressions(u, data.series, visible));
          // How many alert markers are drawn: those inside the plot area, so a zoom leaves the axes clear.
          el.dataset.alertMarkers = String(drawAlerts(u, data.series, visible));
          if (highlight) drawHighlight(u, data.series, visible, new Set([highlight].flat()));
        },
      ],
      setCursor: [
        (u) => {
          if (pinnedRef.current) return;
          const { left, top } = u.cursor;
          setHover(
            left === undefined || left < 0 || top === undefined
              ? null
              : nearest(u, data, hiddenRef.current, left, top),
          );
        },
      ],
      setScale: [
        (u, key) => {
          if (key === 'x') {
            const { min, max } = u.scales.x!;
            const isZoomed = min! > data.xs[0]! || max! < data.xs[data.xs.length - 1]!;
            setZoomed(isZoomed);
            if (settled) onZoomRef.current?.(isZoomed ? [Math.floor(min!), Math.ceil(max!)] : undefined);
          } else if (key === 'y') {
            // The y range shown, for tools and tests (the axis itself is canvas).
            el.dataset.yMin = String(u.scales.y!.min);
            el.dataset.yMax = String(u.scales.y!.max);
          }
        },
      ],
      ready: [() => performance.mark('benchtrack:plot-ready')],
    };
    const aligned = [data.xs, ...data.series.map((s) => s.y)] as unknown as uPlot.AlignedData;
    const u = new uPlot(
      options(data, el.clientWidth || 800, height, yAxis, bounds, visible, hooks),
      aligned,
      el,
    );
    plot.current = u;
    if (zoom) u.setScale('x', { min: zoom[0], max: zoom[1] });
    // from here on a change of the x scale is a person's zoom, which goes to the URL
    settled = true;
    u.batch(() => hiddenRef.current.forEach((i) => u.setSeries(i + 1, { show: false })));
    const click = () => setPinned((p) => !p);
    u.over.addEventListener('click', click);
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    el.dataset.ready = 'true';
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
      setHover(null);
      setPinned(false);
    };
  }, [data, bounds, yAxis, height, [highlight].flat().join(), scheme]);

  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    u.batch(() =>
      data.series.forEach(
        (_, i) => u.series[i + 1]!.show !== !hidden.has(i) && u.setSeries(i + 1, { show: !hidden.has(i) }),
      ),
    );
    u.redraw();
  }, [hidden]);

  // With several lines, the one whose point is shown is emphasised and the others fade.
  const focused = data.series.length < 2 ? -1 : (hover?.series ?? emphasis ?? -1);
  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    u.setSeries(focused < 0 ? null : focused + 1, { focus: focused >= 0 }, false);
    if (box.current) box.current.dataset.focusedSeries = String(focused);
  }, [focused, data]);

  const move = (key: Parameters<typeof movePoint>[3]) => {
    const u = plot.current;
    if (!u) return;
    const to = movePoint(data, hidden, hover, key);
    if (!to) return;
    const s = data.series[to.series]!;
    setHover({
      ...to,
      left: u.valToPos(data.xs[to.idx]!, 'x'),
      top: u.valToPos(s.y[to.idx]!, s.axis === 0 ? 'y' : 'y2'),
    });
    setPinned(true);
  };

  const onKey = (event: KeyboardEvent) => {
    if (MOVE_KEYS.has(event.key)) {
      event.preventDefault();
      move(event.key as Parameters<typeof movePoint>[3]);
    } else if (event.key === 'Escape') {
      setPinned(false);
      setHover(null);
    } else if (event.key === 'Enter' && hover) {
      const s = data.series[hover.series]!;
      const m = s.pointAt[hover.idx]!;
      if (m >= 0) navigate(reportHref(s.source.report(m)));
    }
  };

  const series = hover ? data.series[hover.series] : undefined;
  const m = hover && series ? series.pointAt[hover.idx]! : -1;
  const point = series && m >= 0 ? series.source.point(m) : undefined;
  const u = plot.current;
  const offsetLeft = u ? u.over.offsetLeft : 0;
  const offsetTop = u ? u.over.offsetTop : 0;
  const flip = hover && box.current ? hover.left > box.current.clientWidth / 2 : false;
  return (
    <div class="plot-frame">
      <AxisTitle data={data} axis={0} />
      <div class="plot-area">
        <div
          ref={box}
          class="plot"
          tabIndex={0}
          role="img"
          aria-label={`${label}. Arrow keys move between points and lines, Home and End to the first and last point, Enter opens the report, Escape closes the details.`}
          onKeyDown={onKey}
          data-testid="perf-plot"
        />
        {hover && series && point && (
          <>
            <span
              class="hover-ring"
              style={{
                left: `${offsetLeft + hover.left}px`,
                top: `${offsetTop + hover.top}px`,
                borderColor: series.color,
              }}
            />
            <Tooltip
              series={series}
              point={point}
              pinned={pinned}
              reportHref={reportHref}
              style={{
                top: `${offsetTop + Math.max(0, hover.top - 20)}px`,
                ...(flip
                  ? { right: `${(box.current?.clientWidth ?? 0) - offsetLeft - hover.left + 14}px` }
                  : { left: `${offsetLeft + hover.left + 14}px` }),
              }}
            />
          </>
        )}
        {zoomed && (
          <button
            type="button"
            class="reset-zoom"
            onClick={() =>
              plot.current?.setScale('x', { min: data.xs[0]!, max: data.xs[data.xs.length - 1]! })
            }
          >
            Reset zoom
          </button>
        )}
      </div>
      <AxisTitle data={data} axis={1} />
    </div>
  );
}
