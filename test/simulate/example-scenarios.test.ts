import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { buildWorld } from "../../src/simulate/build-world.js";
import { loadScenario } from "../../src/simulate/load-scenario.js";
import { loadTraces } from "../../src/simulate/load-traces.js";
import { renderFiles, simulateAll, simulateRuns, simulateSeeds, summaryOf } from "../../src/simulate/run-simulation.js";
import { scenarioSchema } from "../../src/simulate/scenario.js";

const dir = new URL("../../../examples/scenarios/", import.meta.url);

describe("examples/scenarios", () => {
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml"))) {
    it(`${file} loads as a simulation scenario`, () =>
      expect(loadScenario(new URL(file, dir).pathname).name).to.equal(file.replace(/\.yaml$/, "")));
  }

  it("your-cluster.yaml (docs/scenarios.md's worked example) runs: one hour, every strategy places its pods", () => {
    const scenario = scenarioSchema.parse({
      ...parse(readFileSync(new URL("your-cluster.yaml", dir), "utf8")),
      durationHours: 1,
      maintenance: [],
    });
    const world = buildWorld(scenario);
    expect(world.hosts.count).to.equal(6);
    expect(world.nodes.count).to.equal(12);
    const results = simulateAll(world, 1);
    expect(results.map((r) => r.strategy)).to.deep.equal(["default", "vm-load-aware", "hvx", "hvx+rebalance", "oracle"]);
    for (const r of results) expect(r.figures.placedPods, r.strategy).to.be.greaterThan(0);
  });

  it("online-batch.yaml runs: two hours, the online class's contended pod-seconds are their own figure, in the report too", () => {
    const path = new URL("online-batch.yaml", dir).pathname;
    const world = buildWorld({ ...loadScenario(path), durationHours: 2 });
    const { runs, acrossSeeds } = simulateSeeds(world, 1, 1, ["overflow"], undefined, "off");
    for (const r of runs[0]!.results) {
      // checkout (96) and search (64) run from the first 20 minutes on: well over 160 x 1.5 pod-hours
      expect(r.figures.onlinePodHours, r.strategy).to.be.within(160 * 1.5, 160 * 2);
      expect(r.figures.onlineContendedPodSeconds, r.strategy).to.be.at.most(r.figures.contendedPodSeconds);
    }
    const report = renderFiles(world, 1, runs, { ...summaryOf(world, 1, runs), acrossSeeds })["report.md"]!;
    expect(report).to.include("### The online class");
    expect(report).to.match(/- the online class's contended pod-hours \(against `default`\): default [0-9.]+; vm-load-aware/);
  });

  it("traced-neighbours.yaml runs on its bundled traces: two hours, DRS off and on, every strategy places its pods", () => {
    const path = new URL("traced-neighbours.yaml", dir).pathname;
    const scenario = { ...loadScenario(path), durationHours: 2 };
    const world = buildWorld(scenario, loadTraces(scenario, new URL(".", dir).pathname));
    expect(world.noisyTrace.filter((t) => t !== undefined)).to.have.length(9);
    expect(world.skippedTraceRows).to.equal(1);
    for (const run of simulateRuns(world, 1)) {
      for (const r of run.results) expect(r.figures.placedPods, `${run.key} ${r.strategy}`).to.be.greaterThan(0);
    }
  });

  it("the bundled traces are exactly what scripts/generate-gwa-traces.mjs writes (seeded, reproducible)", () => {
    const out = mkdtempSync(join(tmpdir(), "hvx-traces-"));
    try {
      execFileSync(process.execPath, [new URL("../../../scripts/generate-gwa-traces.mjs", import.meta.url).pathname, out, "12"]);
      for (const sub of ["office-vms", "office-pods"]) {
        const bundled = new URL(`traces/${sub}/`, dir).pathname;
        const names = readdirSync(bundled).sort();
        expect(readdirSync(join(out, sub)).sort()).to.deep.equal(names);
        for (const name of names)
          expect(readFileSync(join(out, sub, name), "utf8"), `${sub}/${name}`).to.equal(readFileSync(join(bundled, name), "utf8"));
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
