import type { OversellLedger } from "../placement/oversell-ledger.js";

/**
 * `hvx report oversell`: the ledger as plain-text tables a capacity planner can paste, and a
 * one-line total ("requests scaled from 412.0 to 206.0 cores in 9 namespaces; 3 hosts above
 * the stacked cap"). Unknown ratios print as `n/a`; a ratio above its cap is marked `!`.
 */
export function renderOversellReport(ledger: OversellLedger): string {
  const t = ledger.totals;
  const total =
    `requests scaled from ${cores(t.original.cpuMilli)} to ${cores(t.scaled.cpuMilli)} cores and from ${gib(t.original.memoryBytes)} to ${gib(t.scaled.memoryBytes)} GiB ` +
    `(${t.podsScaled} pods) in ${t.namespacesScaled} namespace${t.namespacesScaled === 1 ? "" : "s"}; ` +
    `${t.hostsAboveCap} host${t.hostsAboveCap === 1 ? "" : "s"} above the stacked cap`;
  const nsRows = ledger.namespaces
    .filter((n) => n.podsScaled > 0)
    .map((n) => [
      n.namespace,
      `${n.podsScaled}/${n.pods}`,
      cores(n.original.cpuMilli),
      cores(n.scaled.cpuMilli),
      ratio(n.cpuRatio),
      gib(n.original.memoryBytes),
      gib(n.scaled.memoryBytes),
      ratio(n.memoryRatio),
    ]);
  const hostRows = ledger.hosts.map((h) => [
    h.name,
    String(h.nodes.length),
    ratio(h.kubernetes.cpu),
    ratio(h.esxi.cpu),
    ratio(h.joint.cpu) + (h.aboveCap.includes("cpu") ? " !" : ""),
    String(h.caps.jointCpu),
    ratio(h.kubernetes.memory),
    ratio(h.esxi.memory),
    ratio(h.joint.memory) + (h.aboveCap.includes("memory") ? " !" : ""),
    String(h.caps.jointMemory),
  ]);
  return [
    total,
    "",
    "Namespaces (scaled pods only)",
    nsRows.length > 0
      ? table(
          ["namespace", "pods scaled", "cpu original", "cpu scaled", "cpu ratio", "mem original GiB", "mem scaled GiB", "mem ratio"],
          nsRows,
        )
      : "(no scaled pods)",
    "",
    "ESXi hosts: joint = Kubernetes (limits / allocatable) x ESXi (vCPU:pCPU, vRAM:pRAM); ! = above the cap",
    hostRows.length > 0
      ? table(["host", "nodes", "k8s cpu", "esxi cpu", "joint cpu", "cap", "k8s mem", "esxi mem", "joint mem", "cap"], hostRows)
      : "(no hosts)",
    "",
  ].join("\n");
}

/** Left-aligned text columns, numbers right-aligned; columns separated by two spaces. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^(n\/a|[-\d./ !]+)$/.test(r[i] ?? "")));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function cores(milli: number): string {
  return (milli / 1000).toFixed(1);
}

function gib(bytes: number): string {
  return (bytes / 2 ** 30).toFixed(1);
}

function ratio(v: number | null): string {
  return v === null ? "n/a" : v.toFixed(2);
}
