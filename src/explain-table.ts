import type { ExplainNodeWire, ExplainReply } from "./protocol/explain-wire.js";

const HEADER = ["NODE", "HOST", "MAPPED BY", "VERDICT", "HEAT", "SAMPLED", "HEADROOM", "PENALTIES", "SCORE", "WHY"] as const;

/** The explain answer as a table: one row of cells per node, worst first, and the summary line. */
export interface ExplainTable {
  readonly pod: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly summary: string;
  /** Why no node could be judged: hvx has no vSphere data. */
  readonly sourceDown?: string;
}

/**
 * The cells of `hvx explain`'s table, which /ui shows too (`GET /debug/explain?table`): one row
 * per node, worst first (rejected, then by score, lowest first; ties keep the order sent).
 */
export function explainTableOf(reply: ExplainReply): ExplainTable {
  return {
    pod: reply.pod,
    header: HEADER,
    rows: worstFirst(reply.nodes).map(row),
    summary: explainSummary(reply),
    ...(reply.sourceDown !== undefined ? { sourceDown: reply.sourceDown } : {}),
  };
}

/** `hvx explain`'s table as text: columns padded to their widest cell, then the summary. */
export function renderExplainTable(reply: ExplainReply): string {
  const { rows, summary } = explainTableOf(reply);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const down = reply.sourceDown !== undefined ? [`no vSphere data, so no node could be judged: ${reply.sourceDown}`] : [];
  return [`pod ${reply.pod}`, ...down, line(HEADER), ...rows.map(line), "", summary].join("\n") + "\n";
}

/**
 * One line: `6 of 19 nodes rejected: 2 on esx-01 (cpu ready 12% >= 10%), ...; 13 pass, best k8s-worker-09 (score 9)`.
 * Rejections are grouped by host (or by node when unmapped), in the order first seen; the
 * parenthesis is the first node's reason.
 */
export function explainSummary(reply: ExplainReply): string {
  const total = reply.nodes.length;
  const rejected = reply.nodes.filter((n) => n.verdict === "reject");
  const passed = reply.nodes.filter((n) => n.verdict === "pass");
  const groups = new Map<string, { count: number; why: string }>();
  for (const n of rejected) {
    const key = n.mapping.host?.name ?? n.node;
    const g = groups.get(key);
    if (g) g.count += 1;
    else groups.set(key, { count: 1, why: n.why ?? n.reasons[0] ?? "rejected" });
  }
  const head = `${rejected.length} of ${total} node${total === 1 ? "" : "s"} rejected`;
  const detail = [...groups].map(([host, g]) => `${g.count} on ${host} (${g.why})`).join(", ");
  const best = passed.reduce<ExplainNodeWire | undefined>((b, n) => (b === undefined || n.score > b.score ? n : b), undefined);
  const tail = passed.length === 0 ? "none pass" : `${passed.length} pass, best ${best!.node} (score ${best!.score})`;
  return `${head}${detail ? `: ${detail}` : ""}; ${tail}`;
}

function worstFirst(nodes: readonly ExplainNodeWire[]): ExplainNodeWire[] {
  return nodes
    .map((n, i) => ({ n, i }))
    .sort((a, b) => rank(a.n) - rank(b.n) || a.n.score - b.n.score || a.i - b.i)
    .map((x) => x.n);
}

function rank(n: ExplainNodeWire): number {
  return n.verdict === "reject" ? 0 : 1;
}

function row(n: ExplainNodeWire): string[] {
  return [
    n.node,
    n.mapping.host?.name ?? "-",
    n.mapping.rule ?? (n.mapping.vm ? "cluster" : "unmapped"),
    n.verdict,
    n.heat,
    sampled(n),
    n.headroom?.total === undefined ? "-" : n.headroom.total.toFixed(2),
    penalties(n),
    n.baseScore !== undefined && n.baseScore !== n.score ? `${n.score} (${n.baseScore})` : String(n.score),
    why(n),
  ];
}

/** Age of the host's sample, as the rules were judged on it. */
function sampled(n: ExplainNodeWire): string {
  const age = n.rules.find((r) => r.scope === "host")?.ageS;
  return age === undefined ? "-" : `${age}s ago`;
}

function penalties(n: ExplainNodeWire): string {
  const p = n.penalties;
  const parts: string[] = [];
  if (p.burstGuard) parts.push(`burst +${p.burstGuard.pods} pods`);
  if (p.limits.length > 0) parts.push(`limits x${p.limits.length}`);
  for (const a of p.adjustments) if (a.points > 0) parts.push(`${a.rule} -${a.points}`);
  return parts.length > 0 ? parts.join(", ") : "-";
}

function why(n: ExplainNodeWire): string {
  if (n.verdict === "reject") return n.why ?? n.reasons.join("; ");
  if (n.exemptBy) return `exempt: ${n.exemptBy}`;
  if (n.noOpinion) return `no opinion: ${n.reasons.join("; ")}`;
  const warm = n.rules
    .filter((r) => r.status === "warn")
    .map(
      (r) =>
        `${r.scope === "vm" ? "VM " : ""}${r.metric} ${r.value}${r.unit === "%" ? "%" : ` ${r.unit}`} >= ${r.warnAt}${r.unit === "%" ? "%" : ` ${r.unit}`} (warn)`,
    );
  return warm.join(", ");
}
