import { expect } from "chai";
import { DEFAULT_GROUP_LEARNING, learnCorrelatedGroups, mostDemanding } from "../../src/placement/correlated-groups.js";

// Synthetic histories: 48 half-hour buckets of host CPU usage %. Every host follows the same
// business day (40 % at night, 70 % from 09:00 to 17:00, buckets 18..33); some add a rise of
// 30 points of their own in buckets `from`..`from + 3` (two hours).
const day = (b: number) => (b >= 18 && b < 34 ? 70 : 40);
const load = (rise?: { from: number }, known = 48): number[] =>
  Array.from({ length: 48 }, (_, b) => (b >= known ? Number.NaN : day(b) + (rise && b >= rise.from && b < rise.from + 4 ? 30 : 0)));
const demand = (byOwner: Record<string, number>) => new Map(Object.entries(byOwner));

describe("learnCorrelatedGroups", () => {
  const cases: Array<{
    name: string;
    hosts: Record<string, { load: number[]; demand: Record<string, number> }>;
    maxGroups?: number;
    want: Record<string, string[]>;
  }> = [
    {
      // api and checkout share h1 and h2, which rise at 10:00; web runs on the quiet h3 and h4
      name: "given two groups on the hosts that rise together, returns them as partners and the quiet group alone",
      hosts: {
        h1: { load: load({ from: 20 }), demand: { api: 4000, checkout: 2000 } },
        h2: { load: load({ from: 20 }), demand: { api: 4000, checkout: 2000 } },
        h3: { load: load(), demand: { web: 6000 } },
        h4: { load: load(), demand: { web: 6000 } },
      },
      want: { api: ["checkout"], checkout: ["api"] },
    },
    {
      // api on h1 and checkout on h2: different hosts, but both rise at 10:00
      name: "given two groups on different hosts that rise in the same buckets, returns them as partners",
      hosts: {
        h1: { load: load({ from: 20 }), demand: { api: 4000 } },
        h2: { load: load({ from: 20 }), demand: { checkout: 4000 } },
        h3: { load: load(), demand: { web: 4000 } },
      },
      want: { api: ["checkout"], checkout: ["api"] },
    },
    {
      name: "given two groups whose hosts rise at different times (10:00 and 15:00), returns no partners",
      hosts: {
        h1: { load: load({ from: 20 }), demand: { api: 4000 } },
        h2: { load: load({ from: 30 }), demand: { checkout: 4000 } },
        h3: { load: load(), demand: { web: 4000 } },
      },
      want: {},
    },
    {
      // every group's rhythm is the cluster's own day: nothing a placement could spread
      name: "given every group on every host, returns no partners (only the cluster's common day)",
      hosts: {
        h1: { load: load({ from: 20 }), demand: { api: 1000, web: 1000 } },
        h2: { load: load(), demand: { api: 1000, web: 1000 } },
      },
      want: {},
    },
    {
      name: "given only 12 trusted buckets, returns no partners (too little history)",
      hosts: {
        h1: { load: load({ from: 4 }, 12), demand: { api: 4000 } },
        h2: { load: load({ from: 4 }, 12), demand: { checkout: 4000 } },
        h3: { load: load(undefined, 12), demand: { web: 4000 } },
      },
      want: {},
    },
    {
      // the two largest groups are web (8000) and api (4000): checkout is not considered
      name: "given more groups than maxGroups, considers only the largest",
      maxGroups: 2,
      hosts: {
        h1: { load: load({ from: 20 }), demand: { api: 4000 } },
        h2: { load: load({ from: 20 }), demand: { checkout: 2000 } },
        h3: { load: load(), demand: { web: 8000 } },
      },
      want: {},
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const hostLoad = new Map(Object.entries(c.hosts).map(([id, h]) => [id, h.load]));
      const onHost = new Map(Object.entries(c.hosts).map(([id, h]) => [id, demand(h.demand)]));
      const got = learnCorrelatedGroups(hostLoad, onHost, { ...DEFAULT_GROUP_LEARNING, maxGroups: c.maxGroups ?? 64 });
      expect(Object.fromEntries(got)).to.deep.equal(c.want);
    });
  }

  it("given a host the cluster view knows but without history, leaves it out of every rhythm", () => {
    const hostLoad = new Map([
      ["h1", load({ from: 20 })],
      ["h2", load({ from: 20 })],
      ["h3", load()],
    ]);
    const onHost = new Map([
      ["h1", demand({ api: 4000 })],
      ["h2", demand({ checkout: 4000 })],
      ["h3", demand({ web: 4000 })],
      ["h9", demand({ api: 100_000, web: 100_000 })],
    ]);
    expect(Object.fromEntries(learnCorrelatedGroups(hostLoad, onHost))).to.deep.equal({ api: ["checkout"], checkout: ["api"] });
  });

  it("given 64 groups on 250 hosts of 300 groups each, scans each host's groups a bounded number of times, not once per group", () => {
    // The cost that blocked hvx's event loop for 0.5-1.3 s per poll on the benchmark's 250 hosts: a scan per host and group.
    let scans = 0;
    class CountingMap extends Map<string, number> {
      override entries(): MapIterator<[string, number]> {
        scans++;
        return super.entries();
      }
      override values(): MapIterator<number> {
        scans++;
        return super.values();
      }
      override [Symbol.iterator](): MapIterator<[string, number]> {
        return this.entries();
      }
    }
    const hostLoad = new Map<string, Float64Array>();
    const onHost = new Map<string, ReadonlyMap<string, number>>();
    for (let h = 0; h < 250; h++) {
      hostLoad.set(`h${h}`, Float64Array.from(load(h % 2 === 0 ? { from: 20 } : undefined)));
      onHost.set(`h${h}`, new CountingMap(Array.from({ length: 300 }, (_, g) => [`group-${(g + h) % 400}`, 1000 + g] as [string, number])));
    }
    learnCorrelatedGroups(hostLoad, onHost);
    expect(scans).to.be.at.most(3 * 250);
  });
});

describe("mostDemanding", () => {
  const byDemand = (totals: Map<string, number>, k: number) =>
    [...totals.keys()].sort((a, b) => totals.get(b)! - totals.get(a)! || (a < b ? -1 : 1)).slice(0, k);

  it("given ties on the cut, keeps the largest first and breaks ties by name", () => {
    const totals = new Map([
      ["web", 8000],
      ["checkout", 2000],
      ["api", 4000],
      ["batch", 2000],
      ["auth", 2000],
    ]);
    expect(mostDemanding(totals, 4)).to.deep.equal(["web", "api", "auth", "batch"]);
    expect(mostDemanding(totals, 0)).to.deep.equal([]);
    expect(mostDemanding(totals, 9)).to.deep.equal(["web", "api", "auth", "batch", "checkout"]);
  });

  it("given 10 000 groups with repeated totals, picks what sorting them all would", () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const totals = new Map(
      Array.from({ length: 10_000 }, (_, i) => [`group-${next() % 100_000}-${i}`, (next() % 50) * 100] as [string, number]),
    );
    for (const k of [1, 64, 500]) expect(mostDemanding(totals, k)).to.deep.equal(byDemand(totals, k));
  });
});
