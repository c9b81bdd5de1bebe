import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { deploymentNodeOptions } from "../manifests/deployment-node-options.js";

const CHILD = fileURLToPath(new URL("./bounded-memory-child.js", import.meta.url));
/** Issue 29 §3: resident memory may grow less than this over each run. */
const MAX_GROWTH_MB = 50;

interface Figures {
  readonly before: { readonly rssMB: number; readonly heapMB: number };
  readonly after: { readonly rssMB: number; readonly heapMB: number };
}

function runChild(scenario: string): Figures {
  // The Deployment's V8 flags: the resident set includes the young generation, which they size.
  const out = execFileSync(process.execPath, [...deploymentNodeOptions(), "--expose-gc", CHILD, scenario], {
    encoding: "utf8",
    timeout: 120_000,
  });
  return JSON.parse(out.trim().split("\n").pop()!) as Figures;
}

describe("extender memory stays bounded by entries (issue 29 §3, in a child process)", function () {
  this.timeout(150_000);

  it("given 300 Job pods with distinct activeDeadlineSeconds, each asked about 2000 nodes, grows its resident set by less than 50 MB", () => {
    const f = runChild("deadlines");
    // Before the cap: 256 pod keys x 2000 nodes of kept decisions, about 180 MB.
    expect(f.after.rssMB - f.before.rssMB, JSON.stringify(f)).to.be.below(MAX_GROWTH_MB);
  });

  it("given a 20-minute vCenter outage with staleMetrics reject and 500 nodes asked every second, grows its resident set by less than 50 MB", () => {
    const f = runChild("outage");
    // Before the cap: a reason text per node and second, about 600 000 of them.
    expect(f.after.rssMB - f.before.rssMB, JSON.stringify(f)).to.be.below(MAX_GROWTH_MB);
  });
});
