import { expect } from "chai";
import { parseSimulateArgs } from "../../src/simulate/parse-simulate-args.js";
import { ScenarioError } from "../../src/simulate/scenario-error.js";

describe("parseSimulateArgs", () => {
  const ok = [
    {
      name: "all three flags",
      argv: ["--scenario", "s.yaml", "--seed", "42", "--out", "o"],
      want: { scenarioPath: "s.yaml", seed: 42, outDir: "o", drs: "both", seeds: 10, physics: "both" },
    },
    {
      name: "a leading `simulate` and --flag=value",
      argv: ["simulate", "--scenario=s.yaml", "--seed=3"],
      want: { scenarioPath: "s.yaml", seed: 3, outDir: "simulation-out", drs: "both", seeds: 10, physics: "both" },
    },
    {
      name: "defaults: seed 1",
      argv: ["--scenario", "s.yaml"],
      want: { scenarioPath: "s.yaml", seed: 1, outDir: "simulation-out", drs: "both", seeds: 10, physics: "both" },
    },
    {
      name: "an hvx config file",
      argv: ["--scenario", "s.yaml", "--config", "c.yaml"],
      want: { scenarioPath: "s.yaml", seed: 1, outDir: "simulation-out", configPath: "c.yaml", drs: "both", seeds: 10, physics: "both" },
    },
    {
      name: "--drs on",
      argv: ["--scenario", "s.yaml", "--drs", "on"],
      want: { scenarioPath: "s.yaml", seed: 1, outDir: "simulation-out", drs: "on", seeds: 10, physics: "both" },
    },
    {
      name: "--drs=off",
      argv: ["--scenario", "s.yaml", "--drs=off"],
      want: { scenarioPath: "s.yaml", seed: 1, outDir: "simulation-out", drs: "off", seeds: 10, physics: "both" },
    },
    {
      name: "--seeds 3 --physics queueing",
      argv: ["--scenario", "s.yaml", "--seeds", "3", "--physics", "queueing"],
      want: { scenarioPath: "s.yaml", seed: 1, outDir: "simulation-out", drs: "both", seeds: 3, physics: "queueing" },
    },
  ];
  for (const c of ok) it(`given ${c.name}, parses`, () => expect(parseSimulateArgs(c.argv)).to.deep.equal(c.want));
  const bad = [
    { name: "no --scenario", argv: ["--seed", "1"], want: /--scenario FILE is required/ },
    { name: "--seeds 0", argv: ["--scenario", "s.yaml", "--seeds", "0"], want: /--seeds must be an integer 1..100/ },
    { name: "--physics today", argv: ["--scenario", "s.yaml", "--physics", "today"], want: /--physics must be overflow, queueing or both/ },
    { name: "a negative seed", argv: ["--scenario", "s", "--seed", "-1"], want: /--seed must be an integer/ },
    { name: "a fractional seed", argv: ["--scenario", "s", "--seed", "1.5"], want: /--seed must be an integer/ },
    { name: "an unknown flag", argv: ["--scenario", "s", "--speed", "2"], want: /unknown argument '--speed'/ },
    { name: "a flag without value", argv: ["--scenario"], want: /--scenario needs a value/ },
    { name: "an unknown --drs value", argv: ["--scenario", "s", "--drs", "maybe"], want: /--drs must be off, on or both, got 'maybe'/ },
  ];
  for (const c of bad) it(`given ${c.name}, throws`, () => expect(() => parseSimulateArgs(c.argv)).to.throw(ScenarioError, c.want));
});
