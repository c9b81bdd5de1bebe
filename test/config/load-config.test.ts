import { expect } from "chai";
import { ConfigError, parseConfig, redactConfig } from "../../src/config/index.js";

describe("parseConfig", () => {
  it("given no file, returns every documented default", () => {
    const c = parseConfig(undefined);
    expect(c.server).to.deep.equal({
      port: 8888,
      bodyLimitMB: 16,
      adminPort: 9090,
      shutdownDrainSeconds: 5,
      readinessGraceSeconds: 30,
      allowPlaintext: false,
      debugAccess: "loopback",
    });
    expect(c.admission).to.include({ bodyLimitMB: 3, minCpu: "10m", minMemory: "16Mi" });
    expect(c.burstGuard).to.include({ defaultCpu: "100m", defaultMemory: "128Mi" });
    expect(c.vcenter).to.include({
      viJsonRelease: "8.0.1.0",
      pollIntervalSeconds: 20,
      requestTimeoutSeconds: 10,
      maxConcurrency: 8,
      insecureSkipTLSVerify: false,
      allowPlaintext: false,
    });
    expect(c.thresholds).to.deep.equal({
      cpuReadyPercent: 10,
      cpuReadyWarnPercent: 5,
      hostCpuUsagePercent: 90,
      hostMemoryUsagePercent: 95,
      balloonPercent: 1,
      swapInKBps: 1,
      maxMetricAgeSeconds: 120,
    });
    expect(c.nodeMapping).to.deep.equal(["providerID", "systemUUID", "name"]);
    expect(c.staleMetrics).to.equal("pass");
    expect(c.exempt.namespaces).to.deep.equal(["kube-system"]);
    expect(c.exempt.annotationNamespaces, "hvx.io/exempt is off until namespaces are listed").to.deep.equal([]);
    expect(c.scoring.unknownScore).to.equal(5);
    expect(c.mode).to.equal("enforce");
    expect(c.admission.mode).to.equal("enforce");
    expect(c.filter).to.deep.equal({ whenAllRejected: "pass-coolest" });
  });

  it("given mode, admission.mode and filter.whenAllRejected, loads them; a typo stops start-up naming the key", () => {
    const c = parseConfig("mode: observe\nadmission:\n  mode: observe\nfilter:\n  whenAllRejected: reject\n");
    expect([c.mode, c.admission.mode, c.filter.whenAllRejected]).to.deep.equal(["observe", "observe", "reject"]);
    expect(() => parseConfig("filter:\n  whenAllRejected: pass-hottest\n")).to.throw(ConfigError, /filter\.whenAllRejected/);
    expect(() => parseConfig("mode: shadow\n")).to.throw(ConfigError, /mode/);
  });

  it("given listen addresses, keeps them (IPv4 and IPv6); without, binds every interface as before", () => {
    const c = parseConfig("server:\n  address: 10.0.0.5\n  adminAddress: '::1'\nadmission:\n  address: 0.0.0.0\n");
    expect([c.server.address, c.server.adminAddress, c.admission.address]).to.deep.equal(["10.0.0.5", "::1", "0.0.0.0"]);
    const d = parseConfig(undefined);
    expect([d.server.address, d.server.adminAddress, d.admission.address]).to.deep.equal([undefined, undefined, undefined]);
  });

  it("given no rebalance.maxEvictionsPer100PodHours, returns issue 26's bound 2; given 0.5, loads 0.5", () => {
    expect(parseConfig(undefined).rebalance.maxEvictionsPer100PodHours).to.equal(2);
    expect(parseConfig("rebalance:\n  maxEvictionsPer100PodHours: 0.5\n").rebalance.maxEvictionsPer100PodHours).to.equal(0.5);
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
    {
      name: "the admin port on the extender port",
      yaml: "server:\n  port: 9000\n  adminPort: 9000\n",
      message: /server\.adminPort: must differ from server\.port/,
    },
    {
      name: "server.tls without keyFile",
      yaml: "server:\n  tls:\n    certFile: /a\n    clientCAFile: /c\n",
      message: /server\.tls\.keyFile: Required/,
    },
    {
      name: "a host name as server.address",
      yaml: "server:\n  address: hvx.local\n",
      message: /server\.address: must be an IPv4 or IPv6 address/,
    },
    {
      name: "a port in admission.address",
      yaml: "admission:\n  address: 10.0.0.5:8443\n",
      message: /admission\.address: must be an IPv4 or IPv6 address/,
    },
    { name: "a negative drain", yaml: "server:\n  shutdownDrainSeconds: -1\n", message: /server\.shutdownDrainSeconds: .* \(got -1\)/ },
    {
      name: "rebalance.maxEvictionsPer100PodHours 0",
      yaml: "rebalance:\n  maxEvictionsPer100PodHours: 0\n",
      message: /rebalance\.maxEvictionsPer100PodHours: .*\(got 0\)/,
    },
    {
      name: "rebalance.maxEvictionsPer100PodHours above 100",
      yaml: "rebalance:\n  maxEvictionsPer100PodHours: 101\n",
      message: /rebalance\.maxEvictionsPer100PodHours: .*\(got 101\)/,
    },
    {
      name: "rebalance.maxEvictionsPer100PodHours as text",
      yaml: "rebalance:\n  maxEvictionsPer100PodHours: two\n",
      message: /rebalance\.maxEvictionsPer100PodHours/,
    },
  ];
  for (const c of invalid) {
    it(`given ${c.name}, throws ConfigError naming the key`, () => {
      expect(() => parseConfig(c.yaml)).to.throw(ConfigError, c.message);
    });
  }

  /** Issue 8 section 1: each quantity is parsed at load; the message names the key and the bad value. */
  const badQuantities: Array<{ key: string; yaml: string; message: RegExp }> = [
    {
      key: "admission.minCpu",
      yaml: 'admission:\n  minCpu: "10 m"\n',
      message:
        /^invalid configuration:\n {2}- admission\.minCpu: "10 m" is not a cpu quantity: quantity "10 m" has an unknown suffix " m"$/,
    },
    {
      key: "admission.minMemory",
      yaml: "admission:\n  minMemory: 16MB\n",
      message: /admission\.minMemory: "16MB" is not a memory quantity/,
    },
    {
      key: "burstGuard.defaultCpu",
      yaml: "burstGuard:\n  defaultCpu: one\n",
      message: /burstGuard\.defaultCpu: "one" is not a cpu quantity: .*does not start with a number/,
    },
    {
      key: "burstGuard.defaultMemory",
      yaml: 'burstGuard:\n  defaultMemory: ""\n',
      message: /burstGuard\.defaultMemory: "" is not a memory quantity: quantity is empty/,
    },
    { key: "admission.minCpu (negative)", yaml: "admission:\n  minCpu: -10m\n", message: /admission\.minCpu: "-10m" is negative/ },
    {
      key: "burstGuard.defaultMemory (out of range)",
      yaml: "burstGuard:\n  defaultMemory: 100Ei\n",
      message: /burstGuard\.defaultMemory: "100Ei" is not a memory quantity: .*out of range/,
    },
  ];
  for (const c of badQuantities) {
    it(`given an invalid ${c.key}, stops with a message naming the key and the value`, () => {
      expect(() => parseConfig(c.yaml)).to.throw(ConfigError, c.message);
    });
  }

  it("given every quantity in another valid form (a YAML number included), loads it as text", () => {
    const c = parseConfig("admission:\n  minCpu: 0.01\n  minMemory: 16777216\nburstGuard:\n  defaultCpu: 1\n  defaultMemory: 1e8\n");
    expect([c.admission.minCpu, c.admission.minMemory, c.burstGuard.defaultCpu, c.burstGuard.defaultMemory]).to.deep.equal([
      "0.01",
      "16777216",
      "1",
      "100000000",
    ]);
  });

  /** Durations feed timers: `.inf` or a month would overflow setTimeout into a 1 ms loop. */
  const badDurations: Array<{ yaml: string; message: RegExp }> = [
    { yaml: "vcenter:\n  pollIntervalSeconds: .inf\n", message: /vcenter\.pollIntervalSeconds: .* \(got Infinity\)/ },
    {
      yaml: "vcenter:\n  pollIntervalSeconds: 3000000\n",
      message: /vcenter\.pollIntervalSeconds: must be at most 2147483 seconds .* \(got 3000000\)/,
    },
    { yaml: "thresholds:\n  maxMetricAgeSeconds: .nan\n", message: /thresholds\.maxMetricAgeSeconds/ },
    { yaml: "burstGuard:\n  settleSeconds: 0\n", message: /burstGuard\.settleSeconds: .* \(got 0\)/ },
    { yaml: "nodeLabels:\n  intervalSeconds: -5\n", message: /nodeLabels\.intervalSeconds/ },
    { yaml: "server:\n  readinessGraceSeconds: 9e9\n", message: /server\.readinessGraceSeconds/ },
    { yaml: "kubernetes:\n  resyncSeconds: ten\n", message: /kubernetes\.resyncSeconds: Expected number, received string \(got "ten"\)/ },
  ];
  for (const c of badDurations) {
    it(`given ${c.yaml.trim().replace(/\n\s*/g, " ")}, stops naming the key`, () => {
      expect(() => parseConfig(c.yaml)).to.throw(ConfigError, c.message);
    });
  }

  it("never echoes a bad vcenter.password in the message", () => {
    let message = "";
    try {
      parseConfig("vcenter:\n  password: 123456789\n");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.match(/vcenter\.password: Expected string/);
    expect(message).not.to.include("123456789");
  });

  it("given HVX_VCENTER_PASSWORD_FILE, reads the password from the file and the env wins over the file", () => {
    const c = parseConfig(
      "vcenter:\n  username: from-file\n  password: old\n",
      { HVX_VCENTER_USERNAME: "svc-hvx", HVX_VCENTER_PASSWORD_FILE: "/secret/pw" },
      (p) => (p === "/secret/pw" ? "s3cret\n" : ""),
    );
    expect(c.vcenter.username).to.equal("svc-hvx");
    expect(c.vcenter.password).to.equal("s3cret");
  });

  it("given an unreadable _FILE, throws without leaking anything but the path", () => {
    const readFile = () => {
      throw Object.assign(new Error("nope"), { code: "ENOENT" });
    };
    expect(() => parseConfig(undefined, { HVX_VCENTER_PASSWORD_FILE: "/missing" }, readFile)).to.throw(
      ConfigError,
      /HVX_VCENTER_PASSWORD_FILE: cannot read \/missing: ENOENT/,
    );
  });

  it("redactConfig hides the password and leaves the config itself untouched", () => {
    const c = parseConfig("vcenter:\n  password: hunter2\n");
    expect(JSON.stringify(redactConfig(c))).not.to.include("hunter2");
    expect(c.vcenter.password).to.equal("hunter2");
    expect(Object.isFrozen(c.vcenter)).to.equal(true);
  });
});

describe("parseConfig: several vCenters (vcenters:)", () => {
  const entry = (name: string | undefined, url: string) => `{ ${name === undefined ? "" : `name: ${name}, `}url: "${url}" }`;
  it("given two named entries, loads each with the vcenter: defaults", () => {
    const config = parseConfig(`vcenters: [${entry("vc01", "https://a.example.com")}, ${entry("vc02", "https://b.example.com")}]`);
    expect(config.vcenters.map((v) => [v.name, v.url, v.pollIntervalSeconds, v.viJsonRelease])).to.deep.equal([
      ["vc01", "https://a.example.com", 20, "8.0.1.0"],
      ["vc02", "https://b.example.com", 20, "8.0.1.0"],
    ]);
  });
  it("given no vcenters, defaults to [] and leaves vcenter: as it was", () => expect(parseConfig(undefined).vcenters).to.deep.equal([]));
  it("given one entry without a name, loads it", () =>
    expect(parseConfig(`vcenters: [${entry(undefined, "https://a.example.com")}]`).vcenters).to.have.length(1));
  const errors: Array<{ name: string; yaml: string; want: RegExp }> = [
    {
      name: "both vcenter: and vcenters:",
      yaml: `vcenter: { url: "https://a.example.com" }\nvcenters: [${entry("vc01", "https://b.example.com")}]`,
      want: /vcenter and vcenters: set one of them, not both/,
    },
    {
      name: "two entries with one name",
      yaml: `vcenters: [${entry("vc01", "https://a.example.com")}, ${entry("vc01", "https://b.example.com")}]`,
      want: /vcenters\.1\.name: "vc01" is used by two entries/,
    },
    {
      name: "a missing name with more than one entry",
      yaml: `vcenters: [${entry("vc01", "https://a.example.com")}, ${entry(undefined, "https://b.example.com")}]`,
      want: /vcenters\.1\.name: is required when more than one vCenter is listed/,
    },
    { name: "an entry without a url", yaml: `vcenters: [{ name: vc01 }]`, want: /vcenters\.0\.url: is required/ },
    {
      name: "a name with a slash",
      yaml: `vcenters: [${entry('"a/b"', "https://a.example.com")}]`,
      want: /vcenters\.0\.name: must be 1-63/,
    },
  ];
  for (const c of errors)
    it(`given ${c.name}, stops start-up naming the key`, () => expect(() => parseConfig(c.yaml)).to.throw(ConfigError, c.want));
  it("given HVX_VCENTER_USERNAME/PASSWORD, fills in entries that set none; an entry's own wins", () => {
    const config = parseConfig(
      `vcenters: [{ name: vc01, url: "https://a.example.com" }, { name: vc02, url: "https://b.example.com", username: own }]`,
      { HVX_VCENTER_USERNAME: "env", HVX_VCENTER_PASSWORD: "pw" },
    );
    expect(config.vcenters.map((v) => [v.username, v.password])).to.deep.equal([
      ["env", "pw"],
      ["own", "pw"],
    ]);
    expect(config.vcenter.username).to.equal(undefined);
  });
  it("redactConfig hides every entry's password", () => {
    const config = parseConfig(`vcenters: [{ name: vc01, url: "https://a.example.com", password: s3cret }]`);
    expect(JSON.stringify(redactConfig(config))).to.not.include("s3cret");
  });
});
