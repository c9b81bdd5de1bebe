/**
 * Hand-written SVG charts (no chart library): a line chart over time and a grouped
 * bar chart. Output is deterministic text: coordinates are fixed to one decimal.
 */
const COLORS = ["#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
const W = 800;
const H = 320;
const M = { left: 64, right: 150, top: 52, bottom: 44 };
/** Panel charts: the legend runs under the title, the panels start below it. */
const PANEL_TOP = 84;
const PANEL_W = 1100;
const MAX_POINTS = 600;

export interface LineSeries {
  readonly name: string;
  readonly values: ArrayLike<number>;
  /** Multiplier applied to every value (unit change). */
  readonly scale?: number;
}

export interface LineChartSpec {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly LineSeries[];
  /** x value of sample i (e.g. hours). */
  readonly xOf: (i: number) => number;
  readonly threshold?: { readonly value: number; readonly label: string };
  /** One line under the title: what each point is. */
  readonly subtitle?: string;
}

export function renderLineChart(spec: LineChartSpec): string {
  const n = Math.max(0, ...spec.series.map((s) => s.values.length));
  const buckets = Math.max(1, Math.min(MAX_POINTS, n));
  const per = n / buckets;
  const reduced = spec.series.map((s) => {
    const out: Array<[number, number]> = [];
    for (let b = 0; b < buckets; b++) {
      const from = Math.floor(b * per);
      const to = Math.max(from + 1, Math.floor((b + 1) * per));
      let max = 0;
      for (let i = from; i < to && i < s.values.length; i++) max = Math.max(max, s.values[i]! * (s.scale ?? 1));
      out.push([spec.xOf(from), max]);
    }
    return out;
  });
  const xMax = n > 0 ? spec.xOf(n) : 1;
  const yTop = niceCeil(Math.max(spec.threshold?.value ?? 0, ...reduced.flatMap((r) => r.map((p) => p[1]))) * 1.05);
  const px = (x: number) => M.left + (x / (xMax || 1)) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - (y / yTop) * (H - M.top - M.bottom);
  const parts = [header(spec.title), ...axes(yTop, py, xMax, px, spec.xLabel, spec.yLabel)];
  if (spec.subtitle) parts.push(`<text x="${M.left}" y="38" font-size="11" fill="#444">${esc(spec.subtitle)}</text>`);
  // Labels live in the right margin, outside the plot, so no line crosses them.
  let legendTop = M.top + 10;
  if (spec.threshold) {
    const ty = py(spec.threshold.value);
    parts.push(`<line x1="${M.left}" y1="${f(ty)}" x2="${W - M.right}" y2="${f(ty)}" stroke="#888" stroke-dasharray="4 4"/>`);
    parts.push(`<text x="${W - M.right + 6}" y="${f(ty + 4)}" fill="#666">${esc(spec.threshold.label)}</text>`);
    const legendBottom = legendTop + (spec.series.length - 1) * 18;
    if (ty + 4 >= legendTop - 14 && ty + 4 <= legendBottom + 14) legendTop = ty + 26;
  }
  reduced.forEach((points, i) => {
    const d = points.map(([x, y], j) => `${j === 0 ? "M" : "L"}${f(px(x))},${f(py(y))}`).join("");
    parts.push(`<path d="${d}" fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.5"/>`);
    parts.push(legend(legendTop + i * 18, i, spec.series[i]!.name));
  });
  return `${parts.join("\n")}\n</svg>\n`;
}

export interface PanelGroup {
  readonly label: string;
  /** One value per series (strategy). */
  readonly values: readonly number[];
}

export interface Panel {
  /** The unit every group of this panel shares; the panel's y axis. */
  readonly unit: string;
  readonly groups: readonly PanelGroup[];
}

export interface PanelChartSpec {
  readonly title: string;
  /** One panel per unit, each with its own y axis; groups whose values are all 0 are left out, and so are empty panels. */
  readonly panels: readonly Panel[];
  readonly seriesNames: readonly string[];
}

/** Grouped bars in side-by-side panels, one per unit, so pod-hours, percentages and counts never share an axis. */
export function renderPanelChart(spec: PanelChartSpec): string {
  const panels = spec.panels
    .map((p) => ({ ...p, groups: p.groups.filter((g) => g.values.some((v) => v !== 0)) }))
    .filter((p) => p.groups.length > 0);
  const top = PANEL_TOP;
  const parts = [header(spec.title, PANEL_W)];
  // legend entries 130 px apart, wider for long names (about 6.5 px per character at this font size)
  const spacing = Math.max(130, Math.ceil(6.5 * Math.max(0, ...spec.seriesNames.map((n) => n.length)) + 26));
  spec.seriesNames.forEach((name, i) => {
    const x = M.left + i * spacing;
    parts.push(
      `<rect x="${x}" y="32" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/><text x="${x + 18}" y="42">${esc(name)}</text>`,
    );
  });
  if (panels.length === 0) {
    parts.push(`<text x="${PANEL_W / 2}" y="${H / 2}" text-anchor="middle" fill="#666">every figure is 0 for every strategy</text>`);
    return `${parts.join("\n")}\n</svg>\n`;
  }
  const totalGroups = panels.reduce((n, p) => n + p.groups.length, 0);
  const axisW = 52;
  const gap = 16;
  const groupsW = PANEL_W - 16 - panels.length * (axisW + gap);
  const base = H - M.bottom;
  let x = 8;
  for (const p of panels) {
    const left = x + axisW;
    const width = (groupsW * p.groups.length) / totalGroups;
    const yTop = niceCeil(Math.max(...p.groups.flatMap((g) => g.values)) * 1.1);
    const py = (y: number) => base - (y / yTop) * (base - top);
    parts.push(`<text x="${f(left + width / 2)}" y="${top - 14}" text-anchor="middle" font-weight="bold">${esc(p.unit)}</text>`);
    for (let i = 0; i <= 4; i++) {
      const y = (yTop * i) / 4;
      parts.push(`<line x1="${f(left)}" y1="${f(py(y))}" x2="${f(left + width)}" y2="${f(py(y))}" stroke="#eee"/>`);
      parts.push(`<text x="${f(left - 4)}" y="${f(py(y) + 4)}" text-anchor="end" font-size="10">${esc(short(y))}</text>`);
    }
    parts.push(`<line x1="${f(left)}" y1="${base}" x2="${f(left + width)}" y2="${base}" stroke="#333"/>`);
    parts.push(`<line x1="${f(left)}" y1="${f(top + 4)}" x2="${f(left)}" y2="${base}" stroke="#333"/>`);
    const groupW = width / p.groups.length;
    const barW = (groupW * 0.8) / Math.max(1, spec.seriesNames.length);
    p.groups.forEach((g, gi) => {
      const x0 = left + gi * groupW + groupW * 0.1;
      g.values.forEach((v, si) => {
        const bx = x0 + si * barW;
        parts.push(
          `<rect x="${f(bx)}" y="${f(py(v))}" width="${f(Math.max(1, barW - 2))}" height="${f(base - py(v))}" fill="${COLORS[si % COLORS.length]}"/>`,
        );
        parts.push(`<text x="${f(bx + barW / 2 - 1)}" y="${f(py(v) - 3)}" text-anchor="middle" font-size="10">${esc(short(v))}</text>`);
      });
      parts.push(
        `<text x="${f(left + gi * groupW + groupW / 2)}" y="${base + 16}" text-anchor="middle" font-size="11">${esc(g.label)}</text>`,
      );
    });
    x = left + width + gap;
  }
  return `${parts.join("\n")}\n</svg>\n`;
}

function header(title: string, width = W): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${H}" viewBox="0 0 ${width} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${H}" fill="#fff"/>`,
    `<text x="${M.left}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ].join("\n");
}

function axes(yTop: number, py: (y: number) => number, xMax: number, px: (x: number) => number, xLabel: string, yLabel: string): string[] {
  const out = [
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#333"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="#333"/>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const y = (yTop * i) / 4;
    out.push(`<text x="${M.left - 6}" y="${f(py(y) + 4)}" text-anchor="end">${esc(short(y))}</text>`);
    out.push(`<line x1="${M.left}" y1="${f(py(y))}" x2="${W - M.right}" y2="${f(py(y))}" stroke="#eee"/>`);
  }
  const xStep = niceCeil(xMax / 6);
  for (let x = 0; x <= xMax + 1e-9; x += xStep)
    out.push(`<text x="${f(px(x))}" y="${H - M.bottom + 16}" text-anchor="middle">${esc(short(x))}</text>`);
  out.push(`<text x="${f((M.left + W - M.right) / 2)}" y="${H - 8}" text-anchor="middle">${esc(xLabel)}</text>`);
  out.push(
    `<text x="14" y="${f((M.top + H - M.bottom) / 2)}" transform="rotate(-90 14 ${f((M.top + H - M.bottom) / 2)})" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  return out;
}

function legend(y: number, i: number, name: string): string {
  return `<rect x="${W - M.right + 16}" y="${y - 9}" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/><text x="${W - M.right + 34}" y="${y + 1}">${esc(name)}</text>`;
}

/** Smallest 1, 2 or 5 x 10^k at or above v (1 for v <= 0). */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v - 1e-12) return m * p;
  return 10 * p;
}

function f(v: number): string {
  return (Math.round(v * 10) / 10).toFixed(1);
}

function short(v: number): string {
  if (Math.abs(v) >= 1000) return `${Math.round(v / 100) / 10}k`;
  if (Number.isInteger(v)) return String(v);
  if (Math.abs(v) < 1) return String(Number(v.toPrecision(2)));
  return v.toFixed(Math.abs(v) >= 100 ? 0 : 1);
}

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
