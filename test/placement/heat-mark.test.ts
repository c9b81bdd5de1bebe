import { expect } from "chai";
import fc from "fast-check";
import {
  heatText,
  loweredThresholds,
  nextHeatMark,
  parseHeatText,
  readHeat,
  ruleName,
  type HeatMark,
  type HeatReading,
} from "../../src/placement/heat-mark.js";
import { hostView, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const T = DEFAULT_POLICY.thresholds;
const H = { hysteresisPercent: 10, minHeatChangeSeconds: 120 };
const read = (host: Parameters<typeof hostView>[0], vm?: Parameters<typeof vmView>[0]) =>
  readHeat(hostView(host), vm ? vmView(vm) : undefined, T, NOW_MS, 10);

describe("heat mark: the text of hvx.io/host-heat", () => {
  it("names rules, not values: heat word and rule names only", () => {
    expect(heatText({ heat: "hot", rules: ["cpu-ready", "balloon"] })).to.equal("hot: cpu-ready, balloon");
    expect(heatText({ heat: "warm", rules: ["cpu-usage"] })).to.equal("warm: cpu-usage");
    expect(heatText({ heat: "cool", rules: [] })).to.equal("cool");
  });

  it("names each rule", () => {
    const host = { id: "h", name: "esx" };
    expect(
      ruleName({ code: "host_metric", host, metric: "swap-in rate", value: 3, op: ">=", threshold: 1, unit: "KB/s", ageS: 1 }),
    ).to.equal("swap-in");
    expect(
      ruleName({ code: "host_metric", host, metric: "memory state", value: "hard", op: "in", threshold: "hard|low", unit: "", ageS: 1 }),
    ).to.equal("memory-state");
    expect(
      ruleName({
        code: "vm_metric",
        host,
        vm: { id: "v", name: "w" },
        metric: "balloon",
        value: 3,
        op: ">",
        threshold: 0,
        unit: "MiB",
        ageS: 1,
      }),
    ).to.equal("vm-balloon");
    expect(ruleName({ code: "host_maintenance", host })).to.equal("maintenance");
    expect(ruleName({ code: "host_connection", host, state: "NOT_RESPONDING" })).to.equal("not-connected");
  });

  it("reads a mark back from a Node's annotation, old free-text ones by their heat word", () => {
    expect(parseHeatText("hot: cpu-ready, vm-balloon"))
      .to.include({ heat: "hot" })
      .and.have.deep.property("rules", ["cpu-ready", "vm-balloon"]);
    expect(parseHeatText("cool")).to.deep.include({ heat: "cool", rules: [] });
    expect(parseHeatText("hot: ESXi host esx-01 (host-11): cpu ready 12.0% >= 10% (sampled 4s ago)")?.heat).to.equal("hot");
    expect(parseHeatText("lukewarm")).to.equal(undefined);
    expect(parseHeatText(undefined)).to.equal(undefined);
  });
});

describe("readHeat", () => {
  it("given a host over a rejection threshold, reads hot with the rules that fired, not clear", () => {
    expect(read({ metrics: { cpuReadyPercent: 14, balloonPercent: 2 } })).to.deep.equal({
      heat: "hot",
      rules: ["cpu-ready", "balloon"],
      clear: false,
      sampleMs: NOW_MS - 14_000,
    });
  });

  it("given the node's VM ballooning, names the VM rule", () => {
    expect(read({}, { metrics: { balloonMiB: 10 } })).to.deep.include({ heat: "hot", rules: ["vm-balloon"], clear: false });
  });

  it("given values under the thresholds but within the hysteresis margin (10 % of each), is not clear", () => {
    expect(read({ metrics: { cpuReadyPercent: 9.5 } })).to.deep.include({ heat: "warm", rules: ["cpu-ready"], clear: false });
    expect(read({ metrics: { cpuUsagePercent: 81 } })).to.deep.include({ heat: "warm", rules: ["cpu-usage"], clear: false });
    expect(read({ metrics: { swapInKBps: 0.9 } })).to.deep.include({ clear: false });
  });

  it("given every value below its threshold by the margin, is clear", () => {
    expect(read({ metrics: { cpuReadyPercent: 8.9, cpuUsagePercent: 80.9, memUsagePercent: 85.4 } })).to.deep.include({
      heat: "warm",
      clear: true,
    });
    expect(read({})).to.deep.equal({ heat: "cool", rules: [], clear: true, sampleMs: NOW_MS - 14_000 });
  });

  it("given stale metrics, has no opinion unless a state rule fires", () => {
    expect(read({ metrics: { sampledAtMs: NOW_MS - 600_000, cpuReadyPercent: 30 } })).to.equal(undefined);
    expect(read({ inMaintenance: true, metrics: { sampledAtMs: NOW_MS - 600_000 } })).to.deep.include({
      heat: "hot",
      rules: ["maintenance"],
      clear: false,
    });
  });

  it("lowers each rejection threshold by the percentage, and warn levels with them", () => {
    const t = loweredThresholds({ ...T, cpuReadyWarnPercent: 10 }, 10);
    expect(t).to.include({ cpuReadyPercent: 9, cpuReadyWarnPercent: 9, hostCpuUsagePercent: 81, swapInKBps: 0.9 });
    expect(T.cpuReadyPercent, "the given thresholds stay as they are").to.equal(10);
  });
});

describe("nextHeatMark (hysteresis)", () => {
  const reading = (
    heat: HeatReading["heat"],
    clear: boolean,
    sampleMs: number,
    rules: string[] = heat === "cool" ? [] : ["cpu-ready"],
  ): HeatReading => ({ heat, rules, clear, sampleMs });

  it("given no mark yet, takes the reading as it is", () => {
    expect(nextHeatMark(undefined, reading("hot", false, 1), 0, H)).to.deep.equal({
      heat: "hot",
      rules: ["cpu-ready"],
      changedAtMs: 0,
      clearPolls: 0,
      lastSampleMs: 1,
    });
  });

  it("given a hot mark, cools only after two consecutive clear polls; a repeated sample is not a new poll", () => {
    let mark: HeatMark = nextHeatMark(undefined, reading("hot", false, 1), 0, H);
    mark = nextHeatMark(mark, reading("warm", true, 2), 200_000, H);
    expect(mark.heat).to.equal("hot", "one clear poll");
    mark = nextHeatMark(mark, reading("warm", true, 2), 210_000, H);
    expect(mark.heat).to.equal("hot", "same sample again");
    mark = nextHeatMark(mark, reading("warm", true, 3), 220_000, H);
    expect(mark).to.deep.equal({ heat: "warm", rules: ["cpu-ready"], changedAtMs: 220_000, clearPolls: 2, lastSampleMs: 3 });
  });

  it("given a hot mark and values just under the threshold (not clear), stays hot; a clear poll in between does not add up", () => {
    let mark: HeatMark = nextHeatMark(undefined, reading("hot", false, 1), 0, H);
    for (const [i, clear] of [true, false, true, false, true].entries())
      mark = nextHeatMark(mark, reading("warm", clear, 2 + i), 200_000 + i * 20_000, H);
    expect(mark.heat).to.equal("hot");
  });

  it("given a change sooner than minHeatChangeSeconds after the last one, waits; then changes", () => {
    let mark: HeatMark = nextHeatMark(undefined, reading("cool", true, 1), 0, H);
    mark = nextHeatMark(mark, reading("hot", false, 2), 20_000, H);
    expect(mark.heat).to.equal("cool");
    mark = nextHeatMark(mark, reading("hot", false, 3), 119_999, H);
    expect(mark.heat).to.equal("cool");
    mark = nextHeatMark(mark, reading("hot", false, 4), 120_000, H);
    expect(mark).to.include({ heat: "hot", changedAtMs: 120_000 });
  });

  it("given a mark read back from a Node (changed long ago), may change at once, but a hot one still needs two clear polls", () => {
    const fromNode = parseHeatText("hot: cpu-ready")!;
    expect(nextHeatMark(fromNode, reading("warm", true, 1), 5_000, H).heat).to.equal("hot");
    expect(nextHeatMark(parseHeatText("warm: cpu-usage")!, reading("cool", true, 1), 5_000, H).heat).to.equal("cool");
  });

  it("given a host oscillating around a threshold, changes heat at most once per minHeatChangeSeconds, and settles on a steady reading", () => {
    const arb = fc.record({
      polls: fc.array(
        fc.constantFrom<["hot" | "warm" | "cool", boolean]>(["hot", false], ["warm", false], ["warm", true], ["cool", true]),
        { minLength: 10, maxLength: 120 },
      ),
      minHeatChangeSeconds: fc.integer({ min: 0, max: 300 }),
    });
    fc.assert(
      fc.property(arb, ({ polls, minHeatChangeSeconds }) => {
        const h = { hysteresisPercent: 10, minHeatChangeSeconds };
        let mark: HeatMark | undefined;
        const changes: number[] = [];
        let nowMs = 0;
        // Labeller rounds every 10 s, vCenter polls every 20 s: each reading is seen twice.
        for (const [i, [heat, clear]] of polls.entries()) {
          for (const round of [0, 1]) {
            const before = mark && heatText(mark);
            mark = nextHeatMark(mark, reading(heat, clear, i), nowMs, h);
            if (before !== undefined && before !== heatText(mark)) changes.push(nowMs);
            nowMs += 10_000;
            void round;
          }
        }
        for (let i = 1; i < changes.length; i++) expect(changes[i]! - changes[i - 1]!).to.be.at.least(minHeatChangeSeconds * 1000);
        // Liveness: a reading that holds long enough is taken.
        const last = polls[polls.length - 1]!;
        for (let i = 0; i < 3 + Math.ceil(minHeatChangeSeconds / 20); i++) {
          mark = nextHeatMark(mark, reading(last[0], last[1], polls.length + i), nowMs, h);
          nowMs += 20_000;
        }
        expect(mark!.heat === last[0] || (mark!.heat === "hot" && !last[1])).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });
});
