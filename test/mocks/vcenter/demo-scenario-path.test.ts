import { expect } from "chai";
import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import { demoScenarioPath, scenarioPath } from "../../../mocks/vcenter/index.js";

describe("demoScenarioPath", () => {
  it("returns an absolute path to mocks/vcenter/scenarios/demo.yaml that exists (from dist/)", () => {
    const p = demoScenarioPath();
    expect(isAbsolute(p)).to.equal(true);
    expect(p).to.match(/mocks\/vcenter\/scenarios\/demo\.yaml$/);
    expect(p).not.to.contain("/dist/");
    expect(existsSync(p)).to.equal(true);
  });

  it("resolves faulty.yaml the same way", () => {
    expect(existsSync(scenarioPath("faulty.yaml"))).to.equal(true);
  });
});
