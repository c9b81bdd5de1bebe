import { expect } from "chai";
import { explainSummary, explainTableOf, renderExplainTable } from "../src/explain-table.js";
import type { ExplainNodeWire, ExplainReply } from "../src/protocol/explain-wire.js";

const node = (over: Partial<ExplainNodeWire> & { node: string }): ExplainNodeWire => ({
  mapping: {},
  verdict: "pass",
  unresolvable: false,
  noOpinion: false,
  reasons: [],
  warnings: [],
  heat: "cool",
  rules: [],
  penalties: { limits: [], adjustments: [] },
  score: 8,
  ...over,
});
const on = (host: string) => ({
  rule: "providerID",
  vm: { id: `vm-${host}`, name: `vm-${host}` },
  host: { id: `host-${host}`, name: host },
});
const hot = (name: string, host: string, why: string) =>
  node({
    node: name,
    mapping: on(host),
    verdict: "reject",
    unresolvable: true,
    heat: "hot",
    score: 0,
    why,
    reasons: [`ESXi host ${host}: ${why}`],
  });

const reply: ExplainReply = {
  pod: "shop/web-1",
  nodes: [
    node({
      node: "w-cool",
      mapping: on("esx-05"),
      headroom: { terms: [], total: 0.756 },
      baseScore: 9,
      score: 7,
      penalties: { limits: [], adjustments: [{ rule: "replica-spread", points: 2 }] },
    }),
    hot("w-ready-1", "esx-01", "cpu ready 12% >= 10%"),
    node({
      node: "w-warm",
      mapping: on("esx-04"),
      heat: "warm",
      score: 2,
      rules: [{ scope: "host", metric: "cpu ready", value: 6, unit: "%", op: ">=", threshold: 10, warnAt: 5, status: "warn", ageS: 3 }],
    }),
    hot("w-ready-2", "esx-01", "cpu ready 12% >= 10%"),
    hot("w-swap", "esx-03", "swap-in rate 40 KB/s >= 1 KB/s"),
    node({
      node: "w-ghost",
      heat: "unknown",
      noOpinion: true,
      score: 5,
      reasons: ["node w-ghost: no vSphere VM matches its providerID, systemUUID or name"],
    }),
  ],
};

describe("renderExplainTable", () => {
  const lines = renderExplainTable(reply).split("\n");

  it("given mixed verdicts, lists rejected nodes first, then passing ones by score, lowest first (ties in the order sent)", () => {
    const names = lines.slice(2, 8).map((l) => l.split(/\s+/)[0]);
    expect(names).to.deep.equal(["w-ready-1", "w-ready-2", "w-swap", "w-warm", "w-ghost", "w-cool"]);
  });

  it("aligns every column: each header starts where its cells start", () => {
    const header = lines[1]!;
    for (const column of ["HOST", "VERDICT", "SAMPLED", "SCORE", "WHY"]) {
      const at = header.indexOf(column);
      // trailing blanks are trimmed: an empty last cell ends the row early
      for (const row of lines.slice(2, 8)) if (row.length > at) expect(row.slice(at - 2, at), `${column} in ${row}`).to.equal("  ");
    }
    expect(lines[2]!.slice(header.indexOf("WHY"))).to.equal("cpu ready 12% >= 10%");
  });

  it("shows headroom, penalties, the score before penalties, warnings and the no-opinion reason", () => {
    const cool = lines.find((l) => l.startsWith("w-cool"))!;
    expect(cool).to.match(/0\.76\s+replica-spread -2\s+7 \(9\)/);
    expect(lines.find((l) => l.startsWith("w-warm"))).to.match(/warm\s+3s ago .*cpu ready 6% >= 5% \(warn\)$/);
    expect(lines.find((l) => l.startsWith("w-ghost"))).to.match(/unmapped\s+pass\s+unknown .*no opinion: node w-ghost: no vSphere VM/);
  });

  it("ends with the summary line", () => {
    expect(lines.at(-2)).to.equal(explainSummary(reply));
  });
});

describe("explainSummary", () => {
  const cases: Array<{ name: string; reply: ExplainReply; want: string }> = [
    {
      name: "rejections on two hosts",
      reply,
      want: "3 of 6 nodes rejected: 2 on esx-01 (cpu ready 12% >= 10%), 1 on esx-03 (swap-in rate 40 KB/s >= 1 KB/s); 3 pass, best w-cool (score 7)",
    },
    {
      name: "nothing rejected",
      reply: { pod: "a/b", nodes: [node({ node: "n1", score: 6 }), node({ node: "n2", score: 9 })] },
      want: "0 of 2 nodes rejected; 2 pass, best n2 (score 9)",
    },
    {
      name: "everything rejected",
      reply: { pod: "a/b", nodes: [hot("n1", "esx-01", "cpu ready 12% >= 10%")] },
      want: "1 of 1 node rejected: 1 on esx-01 (cpu ready 12% >= 10%); none pass",
    },
    {
      name: "an unmapped node rejected by a Kubernetes rule (grouped under its own name)",
      reply: {
        pod: "a/b",
        nodes: [
          node({ node: "n1", verdict: "reject", score: 0, reasons: ["cpu limits 25.0 / allocatable 7.8 = 3.21 > 2.0 (limit overcommit)"] }),
        ],
      },
      want: "1 of 1 node rejected: 1 on n1 (cpu limits 25.0 / allocatable 7.8 = 3.21 > 2.0 (limit overcommit)); none pass",
    },
  ];
  for (const c of cases) it(`given ${c.name}, says "${c.want}"`, () => expect(explainSummary(c.reply)).to.equal(c.want));
});

describe("renderExplainTable without vSphere data (issue 27 §1)", () => {
  it("given sourceDown, says so above the table", () => {
    const text = renderExplainTable({
      pod: "ns/p",
      sourceDown: "the vcenter source is down (no successful poll yet, 1 failed attempt): 404",
      nodes: [],
    });
    expect(text.split("\n")[1]).to.equal(
      "no vSphere data, so no node could be judged: the vcenter source is down (no successful poll yet, 1 failed attempt): 404",
    );
  });

  it("given sourceDown, carries it in the cells /ui shows; without it, no such field", () => {
    const down = "the vcenter source is down (no successful poll yet, 1 failed attempt): 404";
    expect(explainTableOf({ pod: "ns/p", sourceDown: down, nodes: [] }).sourceDown).to.equal(down);
    expect(explainTableOf({ pod: "ns/p", nodes: [] })).to.not.have.property("sourceDown");
  });
});
