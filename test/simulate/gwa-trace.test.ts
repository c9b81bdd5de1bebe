import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { buildWorld } from "../../src/simulate/build-world.js";
import { compareTraceNames, parseGwaTrace, sampleTrace, TraceError } from "../../src/simulate/gwa-trace.js";
import { loadTraces } from "../../src/simulate/load-traces.js";
import { runSimulation } from "../../src/simulate/run-simulation.js";
import { ScenarioError } from "../../src/simulate/scenario-error.js";
import { UsageSeries } from "../../src/simulate/usage-series.js";
import { smallScenario } from "./fixtures.js";

const HEADER =
  "Timestamp [ms];\tCPU cores;\tCPU capacity provisioned [MHZ];\tCPU usage [MHZ];\tCPU usage [%];\tMemory capacity provisioned [KB];\tMemory usage [KB];\tDisk read throughput [KB/s]";
/** A GWA-T-12 row: time, CPU %, memory used of 1 000 000 KB. */
const row = (t: number, cpu: number, memKB = 500_000, memCap = 1_000_000, cpuCap = 5200) =>
  [t, 2, cpuCap, (cpu / 100) * cpuCap, cpu, memCap, memKB, 0].join(";\t");
const csv = (...rows: string[]) => [HEADER, ...rows].join("\n");

describe("parseGwaTrace", () => {
  it("reads `;` + tab separated rows: CPU usage [%] (capped at 100) and memory usage / capacity", () => {
    const t = parseGwaTrace(csv(row(0, 20, 250_000), row(300, 140, 2_000_000)), "a.csv");
    expect(Array.from(t.timesS)).to.deep.equal([0, 300]);
    expect(Array.from(t.cpuPercent)).to.deep.equal([20, 100]);
    expect(Array.from(t.memShare)).to.deep.equal([0.25, 1]);
  });

  const times = [
    { name: "seconds (published files)", t0: 1_376_314_846, step: 300, want: [1_376_314_846, 1_376_315_146] },
    { name: "milliseconds (>= 10^11)", t0: 1_376_314_846_000, step: 300_000, want: [1_376_314_846, 1_376_315_146] },
  ];
  for (const c of times)
    it(`reads timestamps in ${c.name}`, () =>
      expect(Array.from(parseGwaTrace(csv(row(c.t0, 1), row(c.t0 + c.step, 2)), "a").timesS)).to.deep.equal(c.want));

  it("sorts by time and keeps the later of two rows with the same timestamp", () => {
    const t = parseGwaTrace(csv(row(600, 30), row(0, 10), row(300, 20), row(300, 25)), "a");
    expect(Array.from(t.timesS)).to.deep.equal([0, 300, 600]);
    expect(Array.from(t.cpuPercent)).to.deep.equal([10, 25, 30]);
  });

  it("skips and counts unparsable rows and rows with zero CPU or memory capacity", () => {
    const t = parseGwaTrace(csv(row(0, 10), "garbage", row(300, 20, 1, 0), row(400, 20, 1, 1000, 0), "1;\t2", row(600, 30)), "a");
    expect(t.skippedRows).to.equal(4);
    expect(Array.from(t.timesS)).to.deep.equal([0, 600]);
  });

  it("refuses a file with fewer than two usable rows, naming it", () => {
    expect(() => parseGwaTrace(csv(row(0, 10), "x"), "/t/vm-7.csv")).to.throw(TraceError, /trace file \/t\/vm-7\.csv: 1 usable row/);
    expect(() => parseGwaTrace(csv(row(0, 10), row(0, 20)), "dup.csv")).to.throw(TraceError, /dup\.csv/);
  });
});

describe("sampleTrace", () => {
  const trace = parseGwaTrace(csv(row(1000, 10), row(1300, 20), row(1600, 30), row(1900, 40)), "a");
  it("holds each row until the next, from the first row at or after startHour", () => {
    const s = sampleTrace(trace, 0, 15, 100);
    expect(Array.from(s.cpuPercent.slice(0, 7))).to.deep.equal([10, 10, 10, 20, 20, 20, 30]);
  });
  it("wraps a file shorter than the run (period: last - first + the last gap)", () => {
    const s = sampleTrace(trace, 0, 15, 100);
    // 1200 s period: steps 12.. start over
    expect(Array.from(s.cpuPercent.slice(9, 15))).to.deep.equal([40, 40, 40, 10, 10, 10]);
  });
  it("aligns startHour with the simulation's start", () => {
    const hourly = parseGwaTrace(csv(...Array.from({ length: 24 }, (_, h) => row(h * 3600, h))), "h");
    expect(sampleTrace(hourly, 5, 2, 3600).cpuPercent[0]).to.equal(5);
    expect(sampleTrace(hourly, 5.5, 2, 3600).cpuPercent[0]).to.equal(6);
  });
});

describe("compareTraceNames", () => {
  it("orders numbers numerically, then names lexically", () => {
    expect(["10.csv", "2.csv", "b.csv", "1.csv", "a.csv"].sort(compareTraceNames)).to.deep.equal([
      "1.csv",
      "2.csv",
      "10.csv",
      "a.csv",
      "b.csv",
    ]);
  });
});

describe("traces in a scenario", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-trace-"));
    mkdirSync(join(dir, "vms"));
    // file k: constant CPU 10 x k %, memory k / 10
    for (const k of [1, 2, 10])
      writeFileSync(join(dir, "vms", `${k}.csv`), csv(row(0, 10 * k, k * 100_000), row(300, 10 * k, k * 100_000), "bad row"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const traced = () =>
    smallScenario({
      noisyVms: [{ hosts: [0, 1], perHost: 2, vcpus: 8, memoryGiB: 16, trace: { dir: "vms" } }],
    });

  it("gives the k-th VM of the group (host order, then perHost order) the k-th file, wrapping around, and counts skipped rows once per file", () => {
    const s = traced();
    const world = buildWorld(s, loadTraces(s, dir));
    const usage = new UsageSeries(world, 1);
    usage.advance(0);
    expect([0, 1, 2, 3].map((i) => usage.noisyCpuPercent(i))).to.deep.equal([10, 20, 100, 10]);
    expect(world.skippedTraceRows).to.equal(3);
  });

  it("a traced workload's replica uses CPU usage [%] / 100 x traceScaleMilli of its file", () => {
    const base = smallScenario();
    const s = smallScenario({ workloads: [{ ...base.workloads[0]!, cpu: { trace: { dir: "vms" }, traceScaleMilli: 2000 } }] });
    const world = buildWorld(s, loadTraces(s, dir));
    const usage = new UsageSeries(world, 1);
    usage.advance(0);
    expect([0, 1, 2, 3].map((p) => usage.podCpuMilli(p))).to.deep.equal([200, 400, 2000, 200]);
  });

  it("a scenario with traces is refused without them, and a missing directory is named", () => {
    expect(() => buildWorld(traced())).to.throw(ScenarioError, /trace files/);
    const s = smallScenario({ noisyVms: [{ vcpus: 8, memoryGiB: 16, trace: { dir: "nope" } }] });
    expect(() => loadTraces(s, dir)).to.throw(ScenarioError, /noisyVms\.0\.trace\.dir: cannot read .*nope.*ENOENT/);
  });

  it("runSimulation reads trace directories relative to the scenario file and reports skipped rows", async () => {
    writeFileSync(join(dir, "s.yaml"), stringify({ ...traced(), durationHours: 1 }));
    const summary = await runSimulation({ scenarioPath: join(dir, "s.yaml"), seed: 1, outDir: join(dir, "out"), drs: "off" });
    for (const f of Object.values(summary.runs["drs-off"]!.strategies)) expect(f!.skippedTraceRows).to.equal(3);
  });
});
