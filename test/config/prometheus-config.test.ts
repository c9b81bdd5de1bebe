import { expect } from "chai";
import { ConfigError, parseConfig, redactConfig } from "../../src/config/index.js";

describe("parseConfig: metrics.source and prometheus.* (issue 11)", () => {
  it("given nothing, the vCenter source and the documented Prometheus defaults", () => {
    const c = parseConfig(undefined);
    expect(c.metrics.source).to.equal("vcenter");
    expect(c.prometheus).to.deep.equal({
      insecureSkipTLSVerify: false,
      flavour: "telegraf",
      selector: "",
      queryIntervalSeconds: 20,
      requestTimeoutSeconds: 10,
    });
  });

  const bad: Array<{ name: string; yaml: string; message: RegExp }> = [
    { name: "an unknown source", yaml: "metrics: { source: graphite }", message: /metrics\.source/ },
    { name: "an unknown flavour", yaml: "prometheus: { flavour: node_exporter }", message: /prometheus\.flavour/ },
    { name: "a url that is not one", yaml: "prometheus: { url: prometheus:9090 }", message: /prometheus\.url/ },
    { name: "a zero query interval", yaml: "prometheus: { queryIntervalSeconds: 0 }", message: /prometheus\.queryIntervalSeconds/ },
    { name: "a misspelt key", yaml: "prometheus: { selecter: x }", message: /prometheus/ },
  ];
  for (const c of bad)
    it(`given ${c.name}, rejects it with the key's path`, () => expect(() => parseConfig(c.yaml)).to.throw(ConfigError, c.message));

  it("given HVX_PROMETHEUS_USERNAME and HVX_PROMETHEUS_PASSWORD_FILE, takes them over the file's keys", () => {
    const c = parseConfig(
      "prometheus: { username: a, password: b }",
      { HVX_PROMETHEUS_USERNAME: "hvx", HVX_PROMETHEUS_PASSWORD_FILE: "/s/pw" },
      (p) => (p === "/s/pw" ? "pw-from-file\n" : ""),
    );
    expect([c.prometheus.username, c.prometheus.password]).to.deep.equal(["hvx", "pw-from-file"]);
    expect(c.vcenter.username, "the vCenter credentials are not touched").to.equal(undefined);
  });

  it("given an unreadable HVX_PROMETHEUS_PASSWORD_FILE, a clear error", () => {
    const readFile = () => {
      throw Object.assign(new Error("nope"), { code: "ENOENT" });
    };
    expect(() => parseConfig(undefined, { HVX_PROMETHEUS_PASSWORD_FILE: "/missing" }, readFile)).to.throw(
      ConfigError,
      /HVX_PROMETHEUS_PASSWORD_FILE: cannot read \/missing: ENOENT/,
    );
  });

  it("redactConfig hides the Prometheus password", () => {
    const c = parseConfig("prometheus: { username: hvx, password: hunter3 }");
    expect(JSON.stringify(redactConfig(c))).not.to.include("hunter3");
  });
});
