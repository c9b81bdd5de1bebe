import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { parseConfig } from "../../src/config/index.js";
import { buildWorld } from "../../src/simulate/build-world.js";
import { configChanges } from "../../src/simulate/config-changes.js";
import { headlineTable, renderReport } from "../../src/simulate/render-report.js";
import { runSimulation, simulateRuns, summaryOf } from "../../src/simulate/run-simulation.js";
import { writtenFilesMessage } from "../../src/simulate/written-files-message.js";
import { smallScenario } from "./fixtures.js";

function report(
  config = { thresholds: parseConfig(undefined).thresholds, changes: [] as ReturnType<typeof configChanges> },
  path?: string,
): string {
  const world = buildWorld(smallScenario());
  const runs = simulateRuns(world, 3);
  return renderReport(world, 3, runs, summaryOf(world, 3, runs), "small.yaml", { ...config, ...(path !== undefined ? { path } : {}) });
}

describe("renderReport", () => {
  const text = report();
  const section = (title: string) => text.indexOf(`## ${title}`);

  it("opens with what the figures mean, the thresholds, the configuration and the model's limits, before the results", () => {
    const order = [
      "What the figures mean",
      "Thresholds used",
      "hvx configuration used",
      "What the model does not do",
      "Results",
      "Charts",
    ].map(section);
    for (const i of order) expect(i).to.be.greaterThan(0);
    expect([...order].sort((a, b) => a - b)).to.deep.equal(order);
  });

  it("defines contended, severe, p99 VM ready, cascade and says why 5 % is not hvx's rejection threshold", () => {
    for (const phrase of [
      "**Contended pod-hours**",
      "own CPU ready time was >= 5 % per vCPU",
      "**Severe pod-hours**",
      ">= 10 %",
      "**p99 VM ready %**",
      "**Longest cascade**",
      "within 5 min",
      "**Host-contended pod-hours**",
      "Why 5 % and not hvx's rejection threshold",
      "`thresholds.cpuReadyPercent` (10 % in this run)",
    ]) {
      expect(text, phrase).to.contain(phrase);
    }
  });

  it("names what is not modelled: the descheduler, the all-rejected valve and observe mode, and that vSphere 7's DRS score is a model", () => {
    const limits = text.slice(section("What the model does not do"), section("Results"));
    for (const phrase of ["no descheduler", "a vSphere 7-style model of the VM DRS score", "filter.whenAllRejected", "mode: observe"])
      expect(limits, phrase).to.contain(phrase);
  });

  it("gives every strategy with DRS off and with DRS on, then compares the two", () => {
    const order = ["Results, DRS off", "Results, DRS on", "DRS off against DRS on"].map(section);
    for (const i of order) expect(i).to.be.greaterThan(0);
    expect([...order].sort((a, b) => a - b)).to.deep.equal(order);
    const compare = text.slice(section("DRS off against DRS on"));
    for (const name of ["default", "vm-load-aware", "hvx"]) expect(compare).to.match(new RegExp(`\\| ${name} \\|`));
  });

  it("without --config, says the defaults were used and the Regenerate line has no --config", () => {
    expect(text).to.contain("The production defaults (no `--config`)");
    expect(text).to.match(/Regenerate: `npx hvx simulate --scenario small\.yaml --seed 3 --out <dir>`/);
  });

  it("with --config, lists the thresholds used and the changed keys, and adds --config to the Regenerate line", () => {
    const config = parseConfig(stringify({ thresholds: { cpuReadyPercent: 8 }, scoring: { unknownScore: 4 } }));
    const withConfig = report({ thresholds: config.thresholds, changes: configChanges(config, parseConfig(undefined)) }, "strict.yaml");
    expect(withConfig).to.contain("--out <dir> --config strict.yaml`");
    expect(withConfig).to.contain("| `thresholds.cpuReadyPercent` | `8` | `10` |");
    expect(withConfig).to.contain("| `scoring.unknownScore` | `4` |");
    expect(withConfig).to.match(/thresholds\.cpuReadyPercent`\) \| >= 8 % \|/);
  });

  it("is the same bytes for the same inputs", () => expect(report()).to.equal(text));
});

describe("headlineTable", () => {
  it("shows balloon and swap in GiB-hours (summary.json keeps GiB-seconds)", () => {
    const world = buildWorld(smallScenario());
    const strategies = summaryOf(world, 1, simulateRuns(world, 1, undefined, "off")).runs["drs-off"]!.strategies;
    const f = { ...strategies.hvx!, balloonGiBSeconds: 9000, swapGiBSeconds: 360 };
    const rows = headlineTable({ ...strategies, hvx: f });
    expect(rows[0]).to.contain("balloon GiB-hours").and.contain("swap GiB-hours");
    const cells = rows
      .find((r) => r.startsWith("| hvx |"))!
      .split("|")
      .map((c) => c.trim());
    expect(cells[5]).to.equal("2.5");
    expect(cells[6]).to.equal("0.1");
  });
});

describe("configChanges", () => {
  const defaults = parseConfig(undefined);
  const cases = [
    { name: "the defaults", config: {}, want: [] },
    {
      name: "one threshold",
      config: { thresholds: { cpuReadyPercent: 8 } },
      want: [{ key: "thresholds.cpuReadyPercent", value: "8", defaultValue: "10" }],
    },
    { name: "a value equal to its default", config: { thresholds: { cpuReadyPercent: 10 } }, want: [] },
  ];
  for (const c of cases)
    it(`given ${c.name}, lists ${c.want.length} change(s)`, () =>
      expect(configChanges(parseConfig(stringify(c.config)), defaults)).to.deep.equal(c.want));

  it("never shows a password", () => {
    const changes = configChanges(
      parseConfig(stringify({ vcenter: { url: "https://vc.example", username: "u", password: "s3cret-pw" } })),
      defaults,
    );
    expect(JSON.stringify(changes)).to.not.contain("s3cret-pw");
    expect(changes.find((c) => c.key === "vcenter.password")?.value).to.match(/redacted/i);
  });
});

describe("runSimulation's report.md with --config", () => {
  it("names the config file and its changed keys", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hvx-report-"));
    try {
      writeFileSync(join(dir, "s.yaml"), stringify(smallScenario({ durationHours: 1 })));
      writeFileSync(join(dir, "c.yaml"), "thresholds:\n  hostCpuUsagePercent: 80\n");
      await runSimulation({ scenarioPath: join(dir, "s.yaml"), seed: 2, outDir: join(dir, "out"), configPath: join(dir, "c.yaml") });
      const text = readFileSync(join(dir, "out", "report.md"), "utf8");
      expect(text).to.contain(`--config ${join(dir, "c.yaml")}\``);
      expect(text).to.contain("| `thresholds.hostCpuUsagePercent` | `80` | `90` |");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("writtenFilesMessage", () => {
  it("names every file written, the report first, under the out directory", () => {
    const lines = writtenFilesMessage("simulation-out").trimEnd().split("\n");
    expect(lines[0]).to.equal("hvx simulate: wrote 5 files to simulation-out/");
    expect(lines.at(-1)).to.match(/oracle.*reference.*not a scheduler/);
    expect(lines.slice(1, -1).map((l) => l.trim().split(/\s+/)[0])).to.deep.equal([
      join("simulation-out", "report.md"),
      join("simulation-out", "summary.json"),
      join("simulation-out", "host-ready.svg"),
      join("simulation-out", "cumulative-contention.svg"),
      join("simulation-out", "strategies.svg"),
    ]);
  });
});
