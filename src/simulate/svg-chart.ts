/**
 * Hand-written SVG charts (no chart library): a line chart over time and a grouped
 * bar chart. Output is deterministic text: coordinates are fixed to one decimal.
 */
const COLORS = ["#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd"];
const W = 800;
const H = 320;
const M = { left: 64, right: 150, top: 36, bottom: 44 };
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
  if (spec.threshold) {
    const y = f(py(spec.threshold.value));
    parts.push(`<line x1="${M.left}" y1="${y}" x2="${W - M.right}" y2="${y}" stroke="#888" stroke-dasharray="4 4"/>`);
    parts.push(`<text x="${W - M.right - 4}" y="${f(py(spec.threshold.value) - 4)}" text-anchor="end" fill="#666">${esc(spec.threshold.label)}</text>`);
  }
  reduced.forEach((points, i) => {
    const d = points.map(([x, y], j) => `${j === 0 ? "M" : "L"}${f(px(x))},${f(py(y))}`).join("");
    parts.push(`<path d="${d}" fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.5"/>`);
    parts.push(legend(i, spec.series[i]!.name));
  });
  return `${parts.join("\n")}\n</svg>\n`;
}

export interface BarChartSpec {
  readonly title: string;
  /** One group per figure; each group is scaled to its own maximum (units differ). */
  readonly groups: ReadonlyArray<{ readonly label: string; readonly values: readonly number[] }>;
  readonly seriesNames: readonly string[];
}

export function renderBarChart(spec: BarChartSpec): string {
  const parts = [header(spec.title)];
  const plotW = W - M.left - M.right;
  const groupW = plotW / Math.max(1, spec.groups.length);
  const barW = (groupW * 0.8) / Math.max(1, spec.seriesNames.length);
  const base = H - M.bottom;
  parts.push(`<line x1="${M.left}" y1="${base}" x2="${W - M.right}" y2="${base}" stroke="#333"/>`);
  spec.groups.forEach((g, gi) => {
    const max = Math.max(0, ...g.values);
    const x0 = M.left + gi * groupW + groupW * 0.1;
    g.values.forEach((v, si) => {
      const h = max > 0 ? (v / max) * (H - M.top - M.bottom - 16) : 0;
      const x = x0 + si * barW;
      parts.push(`<rect x="${f(x)}" y="${f(base - h)}" width="${f(barW - 2)}" height="${f(h)}" fill="${COLORS[si % COLORS.length]}"/>`);
      parts.push(`<text x="${f(x + barW / 2 - 1)}" y="${f(base - h - 3)}" text-anchor="middle" font-size="10">${esc(short(v))}</text>`);
    });
    parts.push(`<text x="${f(M.left + gi * groupW + groupW / 2)}" y="${base + 16}" text-anchor="middle">${esc(g.label)}</text>`);
  });
  spec.seriesNames.forEach((name, i) => parts.push(legend(i, name)));
  return `${parts.join("\n")}\n</svg>\n`;
}

function header(title: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
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
  for (let x = 0; x <= xMax + 1e-9; x += xStep) out.push(`<text x="${f(px(x))}" y="${H - M.bottom + 16}" text-anchor="middle">${esc(short(x))}</text>`);
  out.push(`<text x="${f((M.left + W - M.right) / 2)}" y="${H - 8}" text-anchor="middle">${esc(xLabel)}</text>`);
  out.push(`<text x="14" y="${f((M.top + H - M.bottom) / 2)}" transform="rotate(-90 14 ${f((M.top + H - M.bottom) / 2)})" text-anchor="middle">${esc(yLabel)}</text>`);
  return out;
}

function legend(i: number, name: string): string {
  const y = M.top + 10 + i * 18;
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
  return v.toFixed(Math.abs(v) >= 100 ? 0 : 1);
}

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
