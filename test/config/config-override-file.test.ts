import { expect } from "chai";
import { ConfigError, parseConfig } from "../../src/config/index.js";

/** overlays/second-scheduler changes server.tls through HVX_CONFIG_OVERRIDE_FILE without copying the ConfigMap. */
describe("HVX_CONFIG_OVERRIDE_FILE", () => {
  const base =
    "server:\n  port: 8888\n  allowPlaintext: true\nthresholds:\n  cpuReadyPercent: 8\nexempt:\n  namespaces: [kube-system, ops]\n";
  const files: Record<string, string> = {
    "/etc/hvx/config.d/overrides.yaml":
      "server:\n  allowPlaintext: false\n  tls: { certFile: /c, keyFile: /k, clientCAFile: /ca, allowedClientNames: [hvx-scheduler] }\nexempt:\n  namespaces: [kube-system]\n",
    "/list.yaml": "- a\n",
  };
  const readFile = (path: string) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
    return text;
  };
  const env = (path: string) => ({ HVX_CONFIG_OVERRIDE_FILE: path });

  it("given an override file, its mappings merge key by key and its other values (lists too) replace", () => {
    const c = parseConfig(base, env("/etc/hvx/config.d/overrides.yaml"), readFile);
    expect(c.server).to.include({ port: 8888, allowPlaintext: false });
    expect(c.server.tls?.allowedClientNames).to.deep.equal(["hvx-scheduler"]);
    expect(c.thresholds.cpuReadyPercent, "keys the override does not name stay").to.equal(8);
    expect(c.exempt.namespaces).to.deep.equal(["kube-system"]);
  });

  it("given no override file, reads the config file alone", () =>
    expect(parseConfig(base, {}, readFile).server.allowPlaintext).to.equal(true));

  it("given an unreadable override file, refuses naming the variable and the path", () =>
    expect(() => parseConfig(base, env("/nope.yaml"), readFile)).to.throw(
      ConfigError,
      /HVX_CONFIG_OVERRIDE_FILE: cannot use \/nope\.yaml: ENOENT/,
    ));

  it("given an override file holding a list, refuses", () =>
    expect(() => parseConfig(base, env("/list.yaml"), readFile)).to.throw(
      ConfigError,
      /HVX_CONFIG_OVERRIDE_FILE: \/list\.yaml must hold a mapping/,
    ));

  it("given an override with a misspelt key, refuses naming it as in the config file", () => {
    files["/typo.yaml"] = "server:\n  allowPlaintxt: true\n";
    expect(() => parseConfig(base, env("/typo.yaml"), readFile)).to.throw(ConfigError, /allowPlaintxt/);
  });
});
