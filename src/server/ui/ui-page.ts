import type { ThresholdPolicy } from "../../placement/policy.js";
import { HOST_METRIC_RULES, isOn, memoryState } from "../../placement/rules/index.js";
import { DEMO_PENDING_POD_REF } from "../../demo-help.js";

/**
 * `GET /ui`: one self-contained page (inline CSS and script, no external assets: the admin
 * port has no internet). It reads the admin port's own JSON views: `/debug/hosts` (tiles),
 * `/debug/oversell` (ledger totals and per-host layers), `/debug/advice`, and asks
 * `/debug/explain?table` (the rows `hvx explain` prints). Every value is written with textContent, never as HTML.
 */
export interface UiPageOptions {
  /** The page refreshes itself this often: the poll interval. */
  readonly refreshSeconds: number;
  /** The rules' thresholds: a host detail row per metric rule that is on (all of them when absent). */
  readonly thresholds?: ThresholdPolicy;
}

export function renderUiPage(options: UiPageOptions): string {
  const refreshMs = Math.max(1, Math.round(options.refreshSeconds)) * 1000;
  return PAGE.replace("__REFRESH_MS__", String(refreshMs))
    .replace("__METRIC_ROWS__", JSON.stringify(metricRows(options.thresholds)))
    .replace("__POD_EXAMPLE__", DEMO_PENDING_POD_REF);
}

/** The host detail's metric rows, in rule order: label, the `metrics` field shown, and its digits (none: shown as text). */
function metricRows(t: ThresholdPolicy | undefined): Array<{ label: string; field: string; digits?: number }> {
  return [
    ...HOST_METRIC_RULES.filter((rule) => t === undefined || isOn(rule, t)).map((rule) => ({
      label: rule.display.label,
      field: rule.display.field ?? rule.field,
      digits: rule.display.digits,
    })),
    { label: memoryState.display.label, field: "memState" },
  ];
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hvx: both layers</title>
<link rel="icon" href="data:,">
<style>
  :root { --hot: #d64545; --warm: #e8a33d; --cool: #3f9f6b; --unknown: #8a8f98; --ink: #1d232b; --muted: #5b6470; --line: #d9dde3; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #f4f6f8; }
  header { padding: 12px 20px; background: var(--ink); color: #fff; display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
  header h1 { font-size: 18px; margin: 0; }
  header .meta { color: #b8c0cc; font-size: 12px; }
  main { padding: 16px 20px; display: grid; grid-template-columns: minmax(0, 2fr) minmax(320px, 1fr); gap: 16px; }
  section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
  section h2 { font-size: 15px; margin: 0 0 8px; }
  #tiles { display: flex; flex-wrap: wrap; gap: 10px; }
  .tile { width: 220px; border-radius: 8px; padding: 8px 10px; color: #fff; cursor: pointer; border: 2px solid transparent; }
  .tile.selected { border-color: var(--ink); }
  .tile.hot { background: var(--hot); } .tile.warm { background: var(--warm); } .tile.cool { background: var(--cool); } .tile.unknown { background: var(--unknown); }
  .tile .name { font-weight: 600; }
  .tile .heat { float: right; text-transform: uppercase; font-size: 11px; font-weight: 700; }
  .tile .layers { font-size: 12px; opacity: .95; margin: 2px 0 6px; }
  .tile .why { font-size: 12px; font-weight: 600; margin: 0 0 4px; }
  .vm { background: rgba(255,255,255,.92); color: var(--ink); border-radius: 4px; padding: 2px 6px; margin-top: 3px; font-size: 12px; display: flex; justify-content: space-between; }
  .dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 5px; vertical-align: middle; }
  .dot.hot { background: var(--hot); } .dot.warm { background: var(--warm); } .dot.cool { background: var(--cool); } .dot.unknown { background: var(--unknown); }
  #detail { margin-top: 12px; font-size: 13px; }
  #detail ul { margin: 4px 0; padding-left: 18px; }
  table { border-collapse: collapse; width: 100%; font-size: 12px; }
  th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { color: var(--muted); font-weight: 600; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  .over { color: var(--hot); font-weight: 700; }
  #totals { font-size: 14px; margin-bottom: 8px; }
  .finding { border-left: 4px solid var(--warm); padding: 4px 8px; margin-bottom: 8px; background: #fbfbfc; }
  .finding.high { border-left-color: var(--hot); }
  .finding .rule { font-size: 11px; color: var(--muted); text-transform: uppercase; }
  .finding .fix { color: var(--muted); }
  #explain-table td { white-space: nowrap; } #explain-table td:last-child { white-space: normal; }
  #explain-table tr.reject td { color: var(--hot); }
  #explain-out { overflow-x: auto; }
  textarea, input[type=text] { width: 100%; font: 12px ui-monospace, monospace; }
  textarea { height: 90px; }
  button { margin-top: 6px; }
  .error { color: var(--hot); }
  .muted { color: var(--muted); }
  @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
</style>
</head>
<body>
<header><h1>hvx: Kubernetes x ESXi</h1><span class="meta" id="status">loading</span></header>
<main>
  <div>
    <section>
      <h2>ESXi hosts and their node VMs</h2>
      <div id="tiles"></div>
      <div id="detail" class="muted">Click a host for its metrics and reasons.</div>
    </section>
    <section style="margin-top:16px">
      <h2>Oversell ledger</h2>
      <div id="totals"></div>
      <table id="ledger-hosts"></table>
      <table id="ledger-namespaces" style="margin-top:10px"></table>
    </section>
  </div>
  <div>
    <section>
      <h2>Advice</h2>
      <div id="advice"></div>
    </section>
  </div>
  <section style="grid-column: 1 / -1">
    <h2>Explain</h2>
    <form id="explain-form">
      <label>Pod (namespace/name) <input type="text" id="explain-pod" placeholder="e.g. __POD_EXAMPLE__ (the demo's pending pod)"></label>
      <label>or ExtenderArgs JSON <textarea id="explain-args" placeholder='{"Pod": {...}, "NodeNames": ["..."]}'></textarea></label>
      <button type="submit">Explain</button>
    </form>
    <div id="explain-out"></div>
  </section>
</main>
<script>
"use strict";
const REFRESH_MS = __REFRESH_MS__;
const METRIC_ROWS = __METRIC_ROWS__;
let selected = null;
let lastHosts = [];
let layersById = new Map();

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "title") e.title = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}
function fmt(v, digits) { return v === null || v === undefined ? "n/a" : Number(v).toFixed(digits === undefined ? 2 : digits); }
function cores(milli) { return (milli / 1000).toFixed(1); }
function gib(bytes) { return (bytes / 2 ** 30).toFixed(1); }
async function getJson(path) {
  const res = await fetch(path, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(path + " answered " + res.status);
  return res.json();
}

/** "ESXi host esx-02 (host-12): balloon 2% >= 1% (sampled 4s ago)" -> "balloon 2% >= 1%": the tile names the host. */
function shortReason(r) { return r.replace(/^ESXi host [^:]*: /, "").replace(/ \\(sampled [^)]*\\)$/, ""); }
/** Why a tile has its colour, shown on it: a hot host's rejections, a warm one's warnings, an unknown one's missing data. */
function tileReasons(h) {
  const list = h.heat === "hot" ? h.rejections : h.heat === "warm" ? h.warnings : h.stale ? [h.stale] : [];
  return (list || []).slice(0, 3).map(shortReason);
}

function renderTiles(hosts) {
  const box = document.getElementById("tiles");
  box.replaceChildren();
  for (const h of hosts) {
    const layers = layersById.get(h.id);
    const reasons = [...(h.rejections || []), ...(h.warnings || [])];
    const tile = el("div", { class: "tile " + h.heat + (selected === h.id ? " selected" : ""), "data-host": h.name, "data-heat": h.heat, title: reasons.join("\\n") || h.heat },
      el("span", { class: "heat" }, h.heat),
      el("div", { class: "name" }, h.name),
      ...tileReasons(h).map((r) => el("div", { class: "why" }, r)),
      el("div", { class: "layers" }, "vCPU:pCPU " + fmt(h.vcpuPerPcpu) + " · vRAM:pRAM " + fmt(h.vramPerPram) +
        (layers ? " · joint cpu " + fmt(layers.joint.cpu) : "")));
    for (const vm of h.vms || []) {
      tile.append(el("div", { class: "vm", title: (vm.reasons || []).join("\\n") || vm.heat }, el("span", {}, el("span", { class: "dot " + vm.heat }), vm.name), el("span", {}, "ready " + fmt(vm.metrics && vm.metrics.cpuReadyPercent, 1) + " %")));
    }
    tile.addEventListener("click", () => { selected = h.id; renderTiles(lastHosts); renderDetail(); });
    box.append(tile);
  }
}

function renderDetail() {
  const box = document.getElementById("detail");
  const h = lastHosts.find((x) => x.id === selected);
  if (!h) return;
  box.className = "";
  const m = h.metrics || {};
  const layers = layersById.get(h.id);
  const rows = METRIC_ROWS.map((r) => [r.label, r.digits === undefined ? m[r.field] || "n/a" : fmt(m[r.field], r.digits)]);
  rows.push(["sample age s", h.ageSeconds === null ? "n/a" : h.ageSeconds]);
  if (layers) {
    rows.push(["Kubernetes layer cpu / memory", fmt(layers.kubernetes.cpu) + " / " + fmt(layers.kubernetes.memory)]);
    rows.push(["joint cpu / memory (caps)", fmt(layers.joint.cpu) + " / " + fmt(layers.joint.memory) + " (" + layers.caps.jointCpu + " / " + layers.caps.jointMemory + ")"]);
  }
  const table = el("table", {});
  for (const [k, v] of rows) table.append(el("tr", {}, el("th", {}, k), el("td", {}, v)));
  const reasons = [...(h.rejections || []), ...(h.warnings || [])];
  if (h.stale) reasons.push(h.stale);
  const list = el("ul", { id: "reasons" });
  for (const r of reasons) list.append(el("li", {}, r));
  const own = new Set(reasons);
  for (const vm of h.vms || []) for (const r of vm.reasons || []) if (!own.has(r)) list.append(el("li", {}, vm.name + ": " + r));
  box.replaceChildren(el("strong", {}, h.name + " (" + h.id + "): " + h.heat), table, reasons.length || list.childElementCount ? list : el("p", { class: "muted" }, "no reasons"));
}

function renderLedger(o) {
  const t = o.totals;
  const hostsAbove = t.hostsAboveCap;
  document.getElementById("totals").textContent =
    "Requests scaled from " + cores(t.original.cpuMilli) + " to " + cores(t.scaled.cpuMilli) + " cores and " + gib(t.original.memoryBytes) + " to " + gib(t.scaled.memoryBytes) +
    " GiB (" + t.podsScaled + " pods) in " + t.namespacesScaled + " namespaces; " + hostsAbove + " of " + o.hosts.length + " hosts above the stacked cap.";
  const ht = document.getElementById("ledger-hosts");
  ht.replaceChildren(el("tr", {}, ...["host", "nodes", "k8s cpu", "ESXi cpu", "joint cpu", "cap", "k8s mem", "ESXi mem", "joint mem", "cap"].map((x) => el("th", {}, x))));
  for (const h of o.hosts) {
    const over = (r) => (h.aboveCap.includes(r) ? "num over" : "num");
    ht.append(el("tr", {}, el("td", {}, h.name), el("td", { class: "num" }, h.nodes.length),
      el("td", { class: "num" }, fmt(h.kubernetes.cpu)), el("td", { class: "num" }, fmt(h.esxi.cpu)), el("td", { class: over("cpu") }, fmt(h.joint.cpu)), el("td", { class: "num" }, h.caps.jointCpu),
      el("td", { class: "num" }, fmt(h.kubernetes.memory)), el("td", { class: "num" }, fmt(h.esxi.memory)), el("td", { class: over("memory") }, fmt(h.joint.memory)), el("td", { class: "num" }, h.caps.jointMemory)));
  }
  const nt = document.getElementById("ledger-namespaces");
  const scaled = o.namespaces.filter((n) => n.podsScaled > 0);
  nt.replaceChildren(el("tr", {}, ...["namespace", "pods scaled", "cpu original", "cpu scaled", "ratio", "mem original GiB", "mem scaled GiB", "ratio"].map((x) => el("th", {}, x))));
  for (const n of scaled) {
    nt.append(el("tr", {}, el("td", {}, n.namespace), el("td", { class: "num" }, n.podsScaled + " / " + n.pods),
      el("td", { class: "num" }, cores(n.original.cpuMilli)), el("td", { class: "num" }, cores(n.scaled.cpuMilli)), el("td", { class: "num" }, fmt(n.cpuRatio)),
      el("td", { class: "num" }, gib(n.original.memoryBytes)), el("td", { class: "num" }, gib(n.scaled.memoryBytes)), el("td", { class: "num" }, fmt(n.memoryRatio))));
  }
  if (scaled.length === 0) nt.append(el("tr", {}, el("td", { colspan: "8", class: "muted" }, "no scaled pods")));
}

function renderAdvice(a) {
  const box = document.getElementById("advice");
  box.replaceChildren();
  if (a.sourceDown) box.append(el("p", { class: "error" }, "No advice: hvx has no vSphere data (" + a.sourceDown + ")"));
  else if (a.findings.length === 0) box.append(el("p", { class: "muted" }, "Nothing to advise."));
  for (const f of a.findings) {
    box.append(el("div", { class: "finding" + (f.risk >= 70 ? " high" : ""), "data-rule": f.rule },
      el("div", { class: "rule" }, f.rule + " · risk " + f.risk), el("div", {}, el("strong", {}, f.subject), ": " + f.evidence), el("div", { class: "fix" }, "Fix: " + f.fix)));
  }
}

/** hvx explain's table: the same cells as the CLI (GET/POST /debug/explain?table), one row per node, worst first. */
function renderExplainTable(t) {
  const table = el("table", { id: "explain-table" }, el("tr", {}, ...t.header.map((h) => el("th", {}, h))));
  const verdict = t.header.indexOf("VERDICT");
  for (const row of t.rows) table.append(el("tr", { class: row[verdict] }, ...row.map((c) => el("td", {}, c))));
  const down = t.sourceDown ? [el("p", { class: "error" }, "no vSphere data, so no node could be judged: " + t.sourceDown)] : [];
  return el("div", { id: "explain-result" }, el("p", {}, el("strong", {}, "pod " + t.pod)), ...down, table, el("p", { id: "explain-summary" }, t.summary));
}

document.getElementById("explain-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const out = document.getElementById("explain-out");
  const pod = document.getElementById("explain-pod").value.trim();
  const args = document.getElementById("explain-args").value.trim();
  out.replaceChildren(el("p", { class: "muted" }, "asking..."));
  try {
    const res = args
      ? await fetch("/debug/explain?table", { method: "POST", headers: { "Content-Type": "application/json" }, body: args })
      : await fetch("/debug/explain?table&pod=" + encodeURIComponent(pod));
    const text = await res.text();
    let body;
    try { body = JSON.parse(text); } catch { body = text; }
    out.replaceChildren(res.ok ? renderExplainTable(body) : el("p", { class: "error" }, "HTTP " + res.status + ": " + (body && body.Error ? body.Error : text)));
  } catch (err) {
    out.replaceChildren(el("p", { class: "error" }, String(err)));
  }
});

async function refresh() {
  const status = document.getElementById("status");
  try {
    const [hosts, oversell, advice] = await Promise.all([getJson("/debug/hosts"), getJson("/debug/oversell"), getJson("/debug/advice")]);
    layersById = new Map(oversell.hosts.map((h) => [h.id, h]));
    lastHosts = hosts.hosts;
    renderTiles(lastHosts);
    renderDetail();
    renderLedger(oversell);
    renderAdvice(advice);
    status.textContent = hosts.sourceDown
      ? "no vSphere data: " + hosts.sourceDown
      : "polled " + (hosts.polledAt || "never") + " · refreshes every " + REFRESH_MS / 1000 + " s";
    document.body.dataset.loaded = "true";
  } catch (err) {
    status.textContent = "refresh failed: " + err.message;
  }
}
refresh();
setInterval(refresh, REFRESH_MS);
</script>
</body>
</html>
`;
