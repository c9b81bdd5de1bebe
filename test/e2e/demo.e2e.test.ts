import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import { DECODE_PATCH, demoCommands, type DemoCommand, type DemoPorts } from "../../src/demo-help.js";
import { parseExplainArgs, runExplain } from "../../src/explain-cli.js";
import { startHvx, type RunningHvx } from "../../src/main.js";
import { silentLogger } from "../../src/observability/logger.js";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples", import.meta.url));

/** Runs one printed command the way a shell would: curl as fetch, `npx hvx explain` as the CLI's own function. */
async function run(command: string): Promise<string> {
  const explain = /^npx hvx explain (.*)$/.exec(command);
  if (explain) return runExplain(parseExplainArgs(explain[1]!.split(" "), "http://unused"));
  const decodePatch = command.endsWith(DECODE_PATCH);
  const curl = /^curl -s (?:-X (POST) )?(\S+)(?: -H 'Content-Type: application\/json' -d @(\S+))?(?: \| grep '\^(\w+)')?$/.exec(
    decodePatch ? command.slice(0, -DECODE_PATCH.length) : command,
  );
  if (!curl) throw new Error(`the test does not know how to run: ${command}`);
  const [, method, url, file, grep] = curl;
  const res = await fetch(url!, method ? { method, headers: { "Content-Type": "application/json" }, body: readFileSync(file!) } : {});
  expect(res.status, command).to.equal(200);
  const text = await res.text();
  // `| jq -r .response.patch | base64 -d; echo`
  if (decodePatch) return `${Buffer.from((JSON.parse(text) as { response: { patch: string } }).response.patch, "base64").toString()}\n`;
  return grep
    ? text
        .split("\n")
        .filter((l) => l.startsWith(grep))
        .join("\n")
    : text;
}

type Check = (output: string) => void;

/** What each printed command claims to show, by the endpoint it calls. */
const CHECKS: Array<{ matches: RegExp; check: Check }> = [
  {
    matches: /\/filter /,
    check: (out) => {
      const failed = (JSON.parse(out) as { FailedAndUnresolvableNodes: Record<string, string> }).FailedAndUnresolvableNodes;
      for (const n of ["01", "02"]) expect(failed[`k8s-worker-${n}`]).to.match(/^node\(s\) on hot ESXi hosts \(cpu ready\)/);
      for (const n of ["03", "04"]) expect(failed[`k8s-worker-${n}`]).to.match(/^node\(s\) on hot ESXi hosts \(balloon\)/);
      for (const n of ["05", "06"]) expect(failed[`k8s-worker-${n}`]).to.match(/^node\(s\) on hot ESXi hosts \([^)]*swap-in rate/);
      expect(Object.keys(failed)).to.have.length(6);
    },
  },
  {
    matches: /\/prioritize /,
    check: (out) => {
      const score = new Map((JSON.parse(out) as Array<{ Host: string; Score: number }>).map((s) => [s.Host, s.Score]));
      // warm tier 1..4, cool tier 5..10
      for (const warm of ["k8s-worker-07", "k8s-worker-08"]) expect(score.get(warm)).to.be.within(1, 4);
      for (let i = 9; i <= 19; i++) expect(score.get(`k8s-worker-${String(i).padStart(2, "0")}`)).to.be.within(5, 10);
    },
  },
  {
    matches: /\/preempt /,
    check: (out) => {
      expect(Object.keys((JSON.parse(out) as { NodeNameToMetaVictims: object }).NodeNameToMetaVictims).sort()).to.deep.equal([
        "k8s-worker-07",
        "k8s-worker-09",
      ]);
    },
  },
  {
    matches: /^npx hvx explain /,
    check: (out) => {
      const summary = out.trimEnd().split("\n").at(-1)!;
      expect(summary).to.match(
        /^6 of 19 nodes rejected: 2 on esx-01 \(cpu ready \d+% >= 10%.*\), 2 on esx-02 \(balloon 2% >= 1%.*\), 2 on esx-03 \(.*swap-in rate 40 KB\/s >= 1 KB\/s.*\); 13 pass/,
      );
      // the pending web replica: one replica already on esx-05, so workers 09-10 lose 2 points (9 -> 7)
      expect(out).to.match(/\nk8s-worker-09 .* replica-spread -2 +7 \(9\)/);
      expect(out).to.match(/\nk8s-worker-07 .* pass +warm .* 2 +cpu ready 6% >= 5% \(warn\)/);
    },
  },
  {
    matches: /\/debug\/explain /,
    check: (out) => {
      const reply = JSON.parse(out) as {
        nodes: Array<{ node: string; verdict: string; heat: string; rules: Array<{ ageS?: number }>; headroom?: { terms: unknown[] } }>;
      };
      expect(reply.nodes).to.have.length(19);
      expect(reply.nodes.filter((n) => n.verdict === "reject").map((n) => n.node)).to.deep.equal(
        ["01", "02", "03", "04", "05", "06"].map((n) => `k8s-worker-${n}`),
      );
      expect(reply.nodes.find((n) => n.node === "k8s-worker-09")!.headroom!.terms).to.have.length(4);
      expect(reply.nodes.every((n) => n.rules.every((r) => typeof r.ageS === "number"))).to.equal(true);
    },
  },
  {
    matches: /\/debug\/hosts\?pretty$/,
    check: (out) => {
      expect(out).to.match(/^\{\n  "/); // indented for people, not one long line
      const text = JSON.stringify(JSON.parse(out));
      for (let i = 1; i <= 13; i++) expect(text).to.include(`"esx-${String(i).padStart(2, "0")}"`);
    },
  },
  {
    matches: /\/metrics /,
    check: (out) => {
      const lines = out.split("\n");
      expect(lines.length).to.be.greaterThan(5);
      expect(lines.every((l) => l.startsWith("hvx_"))).to.equal(true);
      expect(out).to.match(/^hvx_extender_requests_total\{verb="filter",outcome="ok"\} [1-9]/m);
    },
  },
  {
    matches: /\/mutate .* \| jq -r \.response\.patch \| base64 -d/,
    check: (out) => {
      const patch = JSON.parse(out) as Array<{ op: string; path: string; value: unknown }>;
      // payments-api asks 250m; the default cpuRatio 2 halves it
      expect(patch).to.deep.include({ op: "replace", path: "/spec/containers/0/resources/requests/cpu", value: "125m" });
      expect(patch.some((p) => p.path === "/metadata/annotations/hvx.io~1original-requests")).to.equal(true);
    },
  },
];

describe("the demo shows every feature (npm start's printed commands, in-process)", function () {
  this.timeout(60_000);
  let hvx: RunningHvx;
  let commands: DemoCommand[] = [];

  before(async () => {
    const config = parseConfig(
      `server: { port: ${await freePort()}, adminPort: ${await freePort()} }\nadmission: { port: ${await freePort()} }`,
    );
    hvx = await startHvx(config, silentLogger(), { inCluster: false });
    const ports: DemoPorts = {
      extender: `http://127.0.0.1:${hvx.extenderPort}`,
      admin: `http://127.0.0.1:${hvx.adminPort}`,
      admission: `http://127.0.0.1:${hvx.admissionPort}`,
    };
    commands = demoCommands(ports, EXAMPLES);
    // The first poll and the cluster sync: the filter rejects, and explain sees the pending pod's cluster.
    await until(
      async () => {
        const res = await fetch(`${ports.admin}/debug/explain?pod=shop/web-5d8f7c9b6-pending`);
        if (res.status !== 200) return undefined;
        const body = (await res.json()) as { nodes: Array<{ verdict: string }> };
        return body.nodes.length === 19 && body.nodes.some((n) => n.verdict === "reject") ? true : undefined;
      },
      30_000,
      "the demo's first poll and cluster sync",
    );
  });
  after(() => hvx?.stop());

  it("prints a command for filter, prioritize, preempt, explain (CLI and JSON), hosts, metrics and mutate, each checked below", () => {
    expect(commands.map((c) => CHECKS.findIndex((k) => k.matches.test(c.command)))).to.deep.equal(CHECKS.map((_, i) => i));
  });

  for (const example of ["filter-nodenames.json", "filter-nodes.json"]) {
    it(`given examples/${example}, /debug/explain gives every node /filter's verdict and reasons and /prioritize's score`, async () => {
      const body = readFileSync(`${EXAMPLES}/${example}`);
      const post = async (url: string) =>
        (await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body })).json();
      const extender = `http://127.0.0.1:${hvx.extenderPort}`;
      const explained = (await post(`http://127.0.0.1:${hvx.adminPort}/debug/explain`)) as {
        nodes: Array<{ node: string; verdict: string; reasons: string[]; score: number }>;
      };
      const filter = (await post(`${extender}/filter`)) as {
        FailedNodes: Record<string, string>;
        FailedAndUnresolvableNodes: Record<string, string>;
      };
      const scores = (await post(`${extender}/prioritize`)) as Array<{ Host: string; Score: number }>;
      expect(explained.nodes.map((n) => n.node)).to.deep.equal(scores.map((s) => s.Host));
      expect(explained.nodes).to.have.length(19);
      for (const n of explained.nodes) {
        const failed = filter.FailedAndUnresolvableNodes[n.node] ?? filter.FailedNodes[n.node];
        expect(n.verdict, n.node).to.equal(failed === undefined ? "pass" : "reject");
        // kube-scheduler's text names the rules' metrics only; explain's reasons give each one in detail
        if (failed !== undefined) {
          expect(failed, n.node)
            .to.match(/^node\(s\) /)
            .and.not.include("%");
          const metrics = [...failed.matchAll(/\(([^)]*)\)/g)].flatMap((m) => m[1]!.split(", "));
          for (const metric of metrics) expect(n.reasons.join("; "), n.node).to.include(metric);
        }
        expect(n.score, n.node).to.equal(scores.find((s) => s.Host === n.node)!.Score);
      }
    });
  }

  it("given esx-01 hot on CPU ready, /debug/advice (what hvx advise prints) has a cpu-ready finding for it", async () => {
    const advice = await until(
      async () => {
        const body = (await (await fetch(`http://127.0.0.1:${hvx.adminPort}/debug/advice`)).json()) as {
          findings: Array<{ rule: string; subject: string; evidence: string }>;
        };
        return body.findings.find((f) => f.rule === "cpu-ready-on-hot-host" && f.subject === "host esx-01");
      },
      15_000,
      "the CPU-ready finding for esx-01",
    );
    expect(advice.evidence).to.match(/^CPU ready \d+\.\d% >= 10% per vCPU on ESXi host esx-01 /);
  });

  for (const [i, k] of CHECKS.entries()) {
    it(`command ${i + 1} (${k.matches.source}) shows what its comment claims`, async () => {
      const command = commands.find((c) => k.matches.test(c.command))!;
      k.check(await run(command.command));
    });
  }
});
