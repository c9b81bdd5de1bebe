import { expect } from "chai";
import { ConfigError, parseConfig, redactConfig } from "../../src/config/index.js";

describe("parseConfig", () => {
  it("given no file, returns every documented default", () => {
    const c = parseConfig(undefined);
    expect(c.server).to.deep.equal({ port: 8888, bodyLimitMB: 100 });
    expect(c.vcenter).to.include({ viJsonRelease: "8.0.1.0", pollIntervalSeconds: 20, requestTimeoutSeconds: 10, maxConcurrency: 8, insecureSkipTLSVerify: false });
    expect(c.thresholds).to.deep.equal({ cpuReadyPercent: 10, cpuReadyWarnPercent: 5, hostCpuUsagePercent: 90, hostMemoryUsagePercent: 95, balloonPercent: 1, swapInKBps: 1, maxMetricAgeSeconds: 120 });
    expect(c.nodeMapping).to.deep.equal(["providerID", "systemUUID", "name"]);
    expect(c.staleMetrics).to.equal("pass");
    expect(c.exempt.namespaces).to.deep.equal(["kube-system"]);
    expect(c.scoring.unknownScore).to.equal(5);
  });

  it("given a YAML file, overrides only the keys it sets", () => {
    const c = parseConfig("thresholds:\n  cpuReadyPercent: 8\nvcenter:\n  url: https://vc.example.com\n  clusters: [prod-a]\n");
    expect(c.thresholds.cpuReadyPercent).to.equal(8);
    expect(c.thresholds.cpuReadyWarnPercent).to.equal(5);
    expect(c.vcenter.clusters).to.deep.equal(["prod-a"]);
  });

  const invalid: Array<{ name: string; yaml: string; message: RegExp }> = [
    { name: "a negative threshold", yaml: "thresholds:\n  cpuReadyPercent: -1\n", message: /thresholds\.cpuReadyPercent/ },
    { name: "a misspelt key", yaml: "thresholds:\n  cpuReadyPercnt: 5\n", message: /thresholds.*cpuReadyPercnt/ },
    { name: "a port as text", yaml: "server:\n  port: eighty\n", message: /server\.port/ },
    { name: "an unknown mapping rule", yaml: "nodeMapping: [providerID, macAddress]\n", message: /nodeMapping\.1/ },
    { name: "a bad staleMetrics", yaml: "staleMetrics: maybe\n", message: /staleMetrics/ },
    { name: "warn above reject", yaml: "thresholds:\n  cpuReadyPercent: 5\n  cpuReadyWarnPercent: 8\n", message: /cpuReadyWarnPercent/ },
    { name: "broken YAML", yaml: "server: [\n", message: /not valid YAML/ },
    { name: "a list at the top", yaml: "- a\n- b\n", message: /mapping/ },
  ];
  for (const c of invalid) {
    it(`given ${c.name}, throws ConfigError naming the key`, () => {
      expect(() => parseConfig(c.yaml)).to.throw(ConfigError, c.message);
    });
  }

  it("given HVX_VCENTER_PASSWORD_FILE, reads the password from the file and the env wins over the file", () => {
    const c = parseConfig("vcenter:\n  username: from-file\n  password: old\n", { HVX_VCENTER_USERNAME: "svc-hvx", HVX_VCENTER_PASSWORD_FILE: "/secret/pw" }, (p) => (p === "/secret/pw" ? "s3cret\n" : ""));
    expect(c.vcenter.username).to.equal("svc-hvx");
    expect(c.vcenter.password).to.equal("s3cret");
  });

  it("given an unreadable _FILE, throws without leaking anything but the path", () => {
    const readFile = () => {
      throw Object.assign(new Error("nope"), { code: "ENOENT" });
    };
    expect(() => parseConfig(undefined, { HVX_VCENTER_PASSWORD_FILE: "/missing" }, readFile)).to.throw(ConfigError, /HVX_VCENTER_PASSWORD_FILE: cannot read \/missing: ENOENT/);
  });

  it("redactConfig hides the password and leaves the config itself untouched", () => {
    const c = parseConfig("vcenter:\n  password: hunter2\n");
    expect(JSON.stringify(redactConfig(c))).not.to.include("hunter2");
    expect(c.vcenter.password).to.equal("hunter2");
    expect(Object.isFrozen(c.vcenter)).to.equal(true);
  });
});
