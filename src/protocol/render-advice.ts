import type { Finding } from "../placement/advise.js";

/** `hvx advise`: one numbered block per finding, riskiest first, with its evidence and fix; or why there is no data. */
export function renderAdvice(findings: readonly Finding[], sourceDown?: string): string {
  // Without vSphere data "nothing found" would be a false all-clear.
  if (sourceDown !== undefined) return `no advice: hvx has no vSphere data (${sourceDown})\n`;
  if (findings.length === 0) return "no advice: nothing found on either layer\n";
  const blocks = findings.map((f, i) => `${i + 1}. [risk ${f.risk}] ${f.rule}: ${f.subject}\n   evidence: ${f.evidence}\n   fix: ${f.fix}`);
  return `${findings.length} finding${findings.length === 1 ? "" : "s"}, riskiest first (hvx changes none of this itself)\n\n${blocks.join("\n\n")}\n`;
}
