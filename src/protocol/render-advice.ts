import type { Finding } from "../placement/advise.js";

/** `hvx advise`: one numbered block per finding, riskiest first, with its evidence and fix. */
export function renderAdvice(findings: readonly Finding[]): string {
  if (findings.length === 0) return "no advice: nothing found on either layer\n";
  const blocks = findings.map((f, i) => `${i + 1}. [risk ${f.risk}] ${f.rule}: ${f.subject}\n   evidence: ${f.evidence}\n   fix: ${f.fix}`);
  return `${findings.length} finding${findings.length === 1 ? "" : "s"}, riskiest first (hvx changes none of this itself)\n\n${blocks.join("\n\n")}\n`;
}
