import { expect } from "chai";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { buildWorld } from "../../src/simulate/build-world.js";
import { ConfigError } from "../../src/config/index.js";
import { renderFiles, runSimulation, simulateAll, simulateRuns, summaryOf } from "../../src/simulate/run-simulation.js";
import { smallScenario } from "./fixtures.js";

const SUMMARY_KEYS = [
  "contendedPodSeconds",
  "severeContendedPodSeconds",
  "hostContendedPodSeconds",
  "saturatedPodSeconds",
  "contendedOrSaturatedPodSeconds",
  "correlatedCoHostedPodSeconds",
  "p99VmReadyPercent",
  "balloonGiBSeconds",
  "swapGiBSeconds",
  "evictions",
  "pendingPods",
  "placedPods",
  "meanHostCpuUtilPercent",
  "vmotions",
  "hvxEvictions",
  "rebalanceRemovedPodSeconds",
  "podHours",
  "skippedTraceRows",
  "fromDay2",
];

function render(seed: number): Record<string, string> {
  const world = buildWorld(smallScenario());
  const runs = simulateRuns(world, seed);
  return renderFiles(world, seed, runs, summaryOf(world, seed, runs));
}

describe("runSimulation", () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "hvx-sim-"));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("given --config, the hvx strategy uses that file's thresholds and the others are unchanged", async () => {
    const dir = tempDir();
    const scenarioPath = join(dir, "small.yaml");
    writeFileSync(scenarioPath, stringify(smallScenario()));
    // cpu usage >= 1 % rejects every host: hvx places nothing, the others are unaffected.
    writeFileSync(join(dir, "strict.yaml"), "thresholds:\n  hostCpuUsagePercent: 1\n");
    const base = await runSimulation({ scenarioPath, seed: 5, outDir: join(dir, "base") });
    const strict = await runSimulation({ scenarioPath, seed: 5, outDir: join(dir, "strict"), configPath: join(dir, "strict.yaml") });
    for (const key of ["drs-off", "drs-on"] as const) {
      const b = base.runs[key]!.strategies;
      const st = strict.runs[key]!.strategies;
      expect(st.default).to.deep.equal(b.default);
      expect(b.hvx!.placedPods).to.be.greaterThan(0);
      expect(st.hvx!.placedPods).to.be.below(b.hvx!.placedPods);
    }
  });

  it("given an invalid --config file, fails with ConfigError naming the key", async () => {
    const dir = tempDir();
    const scenarioPath = join(dir, "small.yaml");
    writeFileSync(scenarioPath, stringify(smallScenario()));
    writeFileSync(join(dir, "bad.yaml"), "thresholds:\n  cpuReadyPercent: lots\n");
    let error: unknown;
    try {
      await runSimulation({ scenarioPath, seed: 5, outDir: join(dir, "out"), configPath: join(dir, "bad.yaml") });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.match(/thresholds\.cpuReadyPercent/);
  });

  it("given the same seed twice, writes identical summary, report and charts, byte for byte", () => {
    const a = render(7);
    const b = render(7);
    expect(Object.keys(a).sort()).to.deep.equal([
      "cumulative-contention.svg",
      "host-ready.svg",
      "report.md",
      "strategies.svg",
      "summary.json",
    ]);
    for (const file of Object.keys(a)) expect(b[file], file).to.equal(a[file]);
  });

  it("given another seed, produces a different workload and report", () => {
    expect(render(8)["report.md"]).to.not.equal(render(7)["report.md"]);
  });

  it("summary.json holds both DRS runs and every required key for each strategy", () => {
    const summary = JSON.parse(render(7)["summary.json"]!);
    expect(Object.keys(summary)).to.deep.equal(["scenario", "seed", "steps", "runs"]);
    expect(Object.keys(summary.runs)).to.deep.equal(["drs-off", "drs-on"]);
    for (const run of Object.values(summary.runs) as Array<{ strategies: Record<string, unknown> }>) {
      expect(Object.keys(run.strategies)).to.deep.equal(["default", "vm-load-aware", "hvx", "hvx+rebalance", "oracle"]);
      for (const figures of Object.values(run.strategies)) expect(figures).to.include.keys(...SUMMARY_KEYS);
    }
  });

  it("given --drs on or off, summary.json has only that run", async () => {
    const dir = tempDir();
    const scenarioPath = join(dir, "small.yaml");
    writeFileSync(scenarioPath, stringify(smallScenario({ durationHours: 1 })));
    for (const drs of ["on", "off"] as const) {
      const summary = await runSimulation({ scenarioPath, seed: 5, outDir: join(dir, drs), drs });
      expect(Object.keys(summary.runs)).to.deep.equal([`drs-${drs}`]);
    }
  });

  it("given --seeds 2 --physics both, summary.json and report.md give each physics' mean and range over the seeds and the oracle shares", async () => {
    const dir = tempDir();
    const scenarioPath = join(dir, "small.yaml");
    writeFileSync(scenarioPath, stringify(smallScenario({ durationHours: 1 })));
    const out = join(dir, "out");
    const summary = await runSimulation({ scenarioPath, seed: 5, outDir: out, drs: "off", seeds: 2, physics: "both" });
    expect(summary.physics).to.equal("overflow");
    expect(summary.acrossSeeds!.seeds).to.deep.equal([5, 6]);
    expect(Object.keys(summary.acrossSeeds!.physics)).to.deep.equal(["overflow", "queueing"]);
    const seeds5and6 = [5, 6].map((seed) => simulateRuns(buildWorld(smallScenario({ durationHours: 1 })), seed, undefined, "off"));
    const hvxHours = seeds5and6.map((runs) => runs[0]!.results.find((r) => r.strategy === "hvx")!.figures.contendedPodSeconds / 3600);
    const stat = summary.acrossSeeds!.physics.overflow!["drs-off"]!.hvx!.contendedPodHours;
    expect(stat.mean).to.be.closeTo((hvxHours[0]! + hvxHours[1]!) / 2, 1e-3);
    expect(stat.min).to.be.closeTo(Math.min(...hvxHours), 1e-3);
    const report = readFileSync(join(out, "report.md"), "utf8");
    expect(report).to.contain("## Across 2 seeds (seeds 5-6) and the physics");
    expect(report).to.contain("| queueing | DRS off | oracle (reference) |");
    expect(report).to.contain("--seeds 2 --physics both");
  });

  it("given --drs on, summary.json has hvx under each vSphere lever and report.md the DRS-on advice; --drs off has neither", async () => {
    const dir = tempDir();
    const scenarioPath = join(dir, "small.yaml");
    // seed 1, one hour: hvx has contended pod-seconds with DRS on (2580), so there is advice to give
    writeFileSync(scenarioPath, stringify(smallScenario({ durationHours: 1 })));
    const on = await runSimulation({ scenarioPath, seed: 1, outDir: join(dir, "on"), drs: "on", seeds: 1, physics: "overflow" });
    const levers = on.acrossSeeds!.drsLevers!.overflow!;
    expect(Object.keys(levers)).to.deep.equal(["node-vm-shares-high", "node-vm-reservation", "migration-threshold-lower"]);
    const report = readFileSync(join(dir, "on", "report.md"), "utf8");
    expect(report).to.contain("## With DRS on: what would help");
    expect(report).to.contain("| node VMs' CPU shares High (2000 per vCPU) |");
    expect(report).to.match(/- \*\*a VM-Host "should run on" rule[^\n]*: not indicated\. no DRS-off run/i);
    const off = await runSimulation({ scenarioPath, seed: 1, outDir: join(dir, "off"), drs: "off", seeds: 1, physics: "overflow" });
    expect(off.acrossSeeds).to.not.have.property("drsLevers");
    expect(readFileSync(join(dir, "off", "report.md"), "utf8")).to.not.contain("With DRS on");
    // seed 5: hvx has no contention with DRS on; the figures stay, the advice says there is none to give
    await runSimulation({ scenarioPath, seed: 5, outDir: join(dir, "calm"), drs: "on", seeds: 1, physics: "overflow" });
    expect(readFileSync(join(dir, "calm", "report.md"), "utf8")).to.contain("No advice: hvx had no contended pod-hours with DRS on");
  });

  it("a run of one day or less has no day-2 figures; a longer one counts them from hour 24", () => {
    const short = summaryOf(buildWorld(smallScenario()), 1, simulateRuns(buildWorld(smallScenario()), 1, undefined, "off"));
    expect(short.runs["drs-off"]!.strategies.default!.fromDay2).to.equal(null);
    const world = buildWorld(smallScenario({ durationHours: 26 }));
    const [run] = simulateRuns(world, 1, undefined, "off");
    for (const r of run!.results) {
      expect(r.fromDay2, r.strategy).to.not.equal(undefined);
      // pod-hours from day 2 are the pod-seconds counted in hours 24..26 of the cumulative series' twin
      expect(r.fromDay2!.podHours).to.be.greaterThan(0).and.below(r.figures.podHours);
      const contendedBeforeDay2 = r.series.cumulativeContendedPodSeconds[4320 - 1]!;
      expect(r.fromDay2!.contendedPodSeconds).to.be.closeTo(r.figures.contendedPodSeconds - contendedBeforeDay2, 1e-6);
    }
  });

  it("every strategy sees the same pods: placements are bounded by the same pod count", () => {
    const world = buildWorld(smallScenario());
    for (const r of simulateAll(world, 3)) expect(r.figures.placedPods + r.figures.pendingPods).to.be.at.most(world.pods.count);
  });

  it("writes report.md, summary.json and the SVGs to the out directory and returns the summary", async () => {
    const dir = tempDir();
    const scenarioPath = join(dir, "small.yaml");
    writeFileSync(scenarioPath, stringify(smallScenario()));
    const out = join(dir, "out");
    const summary = await runSimulation({ scenarioPath, seed: 5, outDir: out });
    expect(readdirSync(out).sort()).to.deep.equal([
      "cumulative-contention.svg",
      "host-ready.svg",
      "report.md",
      "strategies.svg",
      "summary.json",
    ]);
    expect(JSON.parse(readFileSync(join(out, "summary.json"), "utf8"))).to.deep.equal(JSON.parse(JSON.stringify(summary)));
    expect(readFileSync(join(out, "host-ready.svg"), "utf8")).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(readFileSync(join(out, "report.md"), "utf8")).to.contain("| hvx |");
  });

  it("given an out directory that cannot be created, fails with a clear error before simulating", async () => {
    const dir = tempDir();
    const scenarioPath = join(dir, "small.yaml");
    writeFileSync(scenarioPath, stringify(smallScenario()));
    let error: unknown;
    try {
      await runSimulation({ scenarioPath, seed: 5, outDir: join(scenarioPath, "out") });
    } catch (err) {
      error = err;
    }
    expect((error as Error).message).to.match(/ENOTDIR|not a directory/);
  });
});
