import { expect } from "chai";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { buildWorld } from "../../src/simulate/build-world.js";
import { ConfigError } from "../../src/config/index.js";
import { renderFiles, runSimulation, simulateAll, summaryOf } from "../../src/simulate/run-simulation.js";
import { smallScenario } from "./fixtures.js";

const SUMMARY_KEYS = ["contendedPodSeconds", "severeContendedPodSeconds", "hostContendedPodSeconds", "p99VmReadyPercent", "balloonGiBSeconds", "swapGiBSeconds", "evictions", "pendingPods", "placedPods", "meanHostCpuUtilPercent", "hvxEvictions"];

function render(seed: number): Record<string, string> {
  const world = buildWorld(smallScenario());
  const results = simulateAll(world, seed);
  return renderFiles(world, seed, results, summaryOf(world, seed, results));
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
    expect(strict.strategies.default).to.deep.equal(base.strategies.default);
    expect(base.strategies.hvx.placedPods).to.be.greaterThan(0);
    expect(strict.strategies.hvx.placedPods).to.be.below(base.strategies.hvx.placedPods);
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
    expect(Object.keys(a).sort()).to.deep.equal(["cumulative-contention.svg", "host-ready.svg", "report.md", "strategies.svg", "summary.json"]);
    for (const file of Object.keys(a)) expect(b[file], file).to.equal(a[file]);
  });

  it("given another seed, produces a different workload and report", () => {
    expect(render(8)["report.md"]).to.not.equal(render(7)["report.md"]);
  });

  it("summary.json holds every required key for each strategy", () => {
    const summary = JSON.parse(render(7)["summary.json"]!);
    expect(Object.keys(summary.strategies)).to.deep.equal(["default", "vm-load-aware", "hvx", "hvx+rebalance"]);
    for (const figures of Object.values(summary.strategies)) expect(figures).to.include.keys(...SUMMARY_KEYS);
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
    expect(readdirSync(out).sort()).to.deep.equal(["cumulative-contention.svg", "host-ready.svg", "report.md", "strategies.svg", "summary.json"]);
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
