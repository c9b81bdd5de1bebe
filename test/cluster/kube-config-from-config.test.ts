import { KubeConfig } from "@kubernetes/client-node";
import { expect } from "chai";
import { kubeConfigFromConfig, KubeConfigError, resolveOwnNamespace } from "../../src/cluster/kube-config-from-config.js";
import { readKubeEnv } from "../../src/config/kube-env.js";

const YAML = (ns?: string): string => `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "https://127.0.0.1:6443" } }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: x, context: { cluster: c, user: u${ns ? `, namespace: ${ns}` : ""} } }]
current-context: x
`;
const load = (files: Record<string, string>) => (kc: KubeConfig, path: string) => {
  const text = files[path];
  if (text === undefined) throw new Error(`ENOENT: no such file ${path}`);
  kc.loadFromString(text);
};

describe("kubeConfigFromConfig", () => {
  const files = { "/etc/hvx/kubeconfig": YAML("hvx-explicit"), "/home/u/.kube/config": YAML() };
  const cases: Array<{ name: string; enabled: "auto" | boolean; kubeconfig?: string; env: ReturnType<typeof readKubeEnv>; want: string }> =
    [
      { name: "given enabled false, stays off", enabled: false, kubeconfig: "/etc/hvx/kubeconfig", env: { inCluster: true }, want: "off" },
      {
        name: "given an explicit path, uses it first",
        enabled: "auto",
        kubeconfig: "/etc/hvx/kubeconfig",
        env: { inCluster: true, kubeconfigPath: "/home/u/.kube/config" },
        want: "file",
      },
      {
        name: "given KUBECONFIG, uses it",
        enabled: "auto",
        env: { inCluster: false, kubeconfigPath: "/home/u/.kube/config" },
        want: "KUBECONFIG",
      },
      { name: "given auto and nothing, stays off", enabled: "auto", env: { inCluster: false }, want: "off" },
    ];
  for (const t of cases) {
    it(t.name, () => {
      const access = kubeConfigFromConfig(
        { enabled: t.enabled, resyncSeconds: 300, ...(t.kubeconfig ? { kubeconfig: t.kubeconfig } : {}) },
        t.env,
        load(files),
      );
      expect(access.enabled ? access.source : "off").to.equal(t.want);
    });
  }

  it("given enabled true and nothing to load, throws a clear KubeConfigError", () => {
    expect(() => kubeConfigFromConfig({ enabled: true, resyncSeconds: 300 }, { inCluster: false })).to.throw(
      KubeConfigError,
      /kubernetes.enabled is true/,
    );
  });

  it("given a missing file, throws naming the path", () => {
    expect(() =>
      kubeConfigFromConfig({ enabled: "auto", resyncSeconds: 300, kubeconfig: "/nope" }, { inCluster: false }, load(files)),
    ).to.throw(KubeConfigError, /\/nope/);
  });
});

describe("resolveOwnNamespace", () => {
  const kc = (ns?: string): KubeConfig => {
    const k = new KubeConfig();
    k.loadFromString(YAML(ns));
    return k;
  };
  it("given POD_NAMESPACE, uses it", () => expect(resolveOwnNamespace(kc("ctx"), "pod-ns")).to.equal("pod-ns"));
  it("given a context namespace, uses it", () => expect(resolveOwnNamespace(kc("ctx"), undefined)).to.equal("ctx"));
  it("given neither, uses default", () => expect(resolveOwnNamespace(kc(), undefined)).to.equal("default"));
});

describe("readKubeEnv", () => {
  it("given the variables, reads KUBECONFIG's first path, in-cluster and POD_NAMESPACE", () => {
    const env = { KUBECONFIG: "/a:/b", KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443", POD_NAMESPACE: "hvx" };
    expect(readKubeEnv(env, () => true)).to.deep.equal({ kubeconfigPath: "/a", inCluster: true, podNamespace: "hvx" });
  });
  it("given no token file, is not in-cluster", () => {
    expect(readKubeEnv({ KUBERNETES_SERVICE_HOST: "h", KUBERNETES_SERVICE_PORT: "1" }, () => false)).to.deep.equal({ inCluster: false });
  });
});
