import { expect } from "chai";
import { readFileSync } from "node:fs";
import { Registry } from "prom-client";
import { hvxVersion } from "../../src/build-info.js";
import { registerBuildInfoGauge } from "../../src/observability/build-info-gauge.js";

describe("registerBuildInfoGauge", () => {
  it("given a version and a Node.js version, exports one hvx_build_info series with both as labels", async () => {
    const registry = new Registry();
    registerBuildInfoGauge(registry, { version: "1.2.3", nodeVersion: "v24.0.0" });
    const lines = (await registry.metrics()).split("\n").filter((l) => l.startsWith("hvx_build_info"));
    expect(lines).to.deep.equal(['hvx_build_info{version="1.2.3",node_version="v24.0.0"} 1']);
  });
});

describe("hvxVersion", () => {
  it("given the source tree, returns package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(hvxVersion()).to.equal(pkg.version);
  });
});
