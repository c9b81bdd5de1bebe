import { expect } from "chai";
import { execFile } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse as parseYaml } from "yaml";
import { FAKE_TOKENS, startFakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { parseConfig, plaintextUses } from "../../src/config/index.js";
import { silentLogger } from "../../src/observability/logger.js";
import { startListener } from "../../src/server/start-listener.js";
import { rawRequest } from "../fixtures/raw-http.js";
import { MANIFESTS_DIR, type Obj } from "./load-manifests.js";
import { KUBECTL, objectKey, renderOverlay } from "./render-overlay.js";

const run = promisify(execFile);
const SCRIPT = join(MANIFESTS_DIR, "overlays", "second-scheduler", "gen-extender-certs.sh");

/** The volume mounted where `path` lies in `container`, and the file's key in it. */
function mountedAt(pod: Obj, container: Obj, path: string): { volume: Obj; key: string } | undefined {
  for (const m of (container.volumeMounts ?? []) as Obj[]) {
    const key =
      m.subPath !== undefined
        ? m.mountPath === path
          ? m.subPath
          : undefined
        : path.startsWith(`${m.mountPath}/`)
          ? path.slice(m.mountPath.length + 1)
          : undefined;
    if (key !== undefined) return { volume: (pod.volumes as Obj[]).find((v) => v.name === m.name)!, key };
  }
  return undefined;
}
const secretAt = (pod: Obj, container: Obj, path: string) => {
  const at = mountedAt(pod, container, path);
  return at?.volume.secret ? `${at.volume.secret.secretName as string}:${at.key}` : `not a Secret: ${path}`;
};

/** Issue 28: the second scheduler and hvx speak mutual TLS, and only the scheduler's pods reach port 8888. */
describe("manifests/overlays/second-scheduler: mutual TLS", function () {
  this.timeout(30_000);
  const objs = renderOverlay("second-scheduler");
  const one = (kind: string, name: string): Obj => {
    const hits = objs.filter((o) => o.kind === kind && o.metadata?.name === name);
    expect(hits, `${kind} ${name}`).to.have.length(1);
    return hits[0]!;
  };
  const hvxPod: Obj = one("Deployment", "hvx").spec.template.spec;
  const hvxContainer: Obj = hvxPod.containers[0];
  const schedulerDeployment = one("Deployment", "hvx-scheduler");
  const schedulerPod: Obj = schedulerDeployment.spec.template.spec;
  const schedulerContainer: Obj = schedulerPod.containers[0];
  const extender: Obj = (parseYaml(one("ConfigMap", "hvx-scheduler-config").data["config.yaml"]) as Obj).extenders[0];
  const certificateFor = (secretName: string): Obj => {
    const hits = objs.filter((o) => o.kind === "Certificate" && o.spec.secretName === secretName);
    expect(hits, `Certificate for ${secretName}`).to.have.length(1);
    return hits[0]!;
  };
  /** hvx's configuration as the pod reads it: the ConfigMap's file, then HVX_CONFIG_OVERRIDE_FILE from its mount. */
  const hvxConfig = () => {
    const read = (path: string): string => {
      const at = mountedAt(hvxPod, hvxContainer, path);
      expect(at?.volume.configMap, `a ConfigMap is mounted at ${path}`).to.not.equal(undefined);
      return one("ConfigMap", at!.volume.configMap.name).data[at!.key];
    };
    const env = Object.fromEntries(
      (hvxContainer.env as Obj[]).filter((e) => e.name === "HVX_CONFIG_OVERRIDE_FILE").map((e) => [e.name, e.value]),
    );
    return parseConfig(read("/etc/hvx/config.yaml"), env, read);
  };

  it("given hvx's config file and the overlay's override, serves mutual TLS from the mounted Secret, accepting hvx-scheduler only, and starts without plain HTTP", () => {
    const config = hvxConfig();
    expect(config.server.allowPlaintext).to.equal(false);
    const tls = config.server.tls!;
    expect([tls.certFile, tls.keyFile, tls.clientCAFile!].map((f) => secretAt(hvxPod, hvxContainer, f))).to.deep.equal([
      "hvx-extender-tls:tls.crt",
      "hvx-extender-tls:tls.key",
      "hvx-extender-tls:ca.crt",
    ]);
    expect(tls.allowedClientNames).to.deep.equal(["hvx-scheduler"]);
    expect(plaintextUses(config), "nothing in clear").to.deep.equal([]);
  });

  it("given the scheduler's extender entry, dials https to the Service name in hvx's certificate, with a client certificate hvx accepts", () => {
    const url = new URL(extender.urlPrefix);
    expect(url.protocol).to.equal("https:");
    expect(extender.enableHTTPS).to.equal(true);
    const files = extender.tlsConfig as Obj;
    expect(files.insecure ?? false).to.equal(false);
    expect([files.caFile, files.certFile, files.keyFile].map((f: string) => secretAt(schedulerPod, schedulerContainer, f))).to.deep.equal([
      "hvx-scheduler-client-tls:ca.crt",
      "hvx-scheduler-client-tls:tls.crt",
      "hvx-scheduler-client-tls:tls.key",
    ]);
    const serving = certificateFor("hvx-extender-tls");
    const client = certificateFor("hvx-scheduler-client-tls");
    expect(serving.spec.dnsNames).to.include(url.hostname);
    expect(client.spec.issuerRef, "one CA: ca.crt of each Secret verifies the other side").to.deep.equal(serving.spec.issuerRef);
    const allowed = hvxConfig().server.tls!.allowedClientNames!;
    const names = (c: Obj) => [c.spec.commonName, ...(c.spec.dnsNames ?? []), ...(c.spec.uris ?? [])].filter(Boolean);
    expect(names(client).filter((n) => allowed.includes(n))).to.not.deep.equal([]);
    expect(client.spec.usages).to.include("client auth");
    expect(
      names(serving).filter((n) => allowed.includes(n)),
      "hvx's own certificate is no client",
    ).to.deep.equal([]);
    expect(serving.spec.usages).to.not.include("client auth");
    expect(schedulerPod.securityContext.fsGroup, "the 0440 Secret files are readable by the scheduler's group").to.equal(
      schedulerPod.securityContext.runAsGroup,
    );
  });

  it("given every NetworkPolicy over hvx's pods, opens the extender port only to the scheduler's pods", () => {
    const hvxLabels: Obj = one("Deployment", "hvx").spec.template.metadata.labels;
    const selects = (selector: Obj, labels: Obj) => Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
    const rules = objs
      .filter((o) => o.kind === "NetworkPolicy" && selects(o.spec.podSelector, hvxLabels))
      .flatMap((o) => (o.spec.ingress ?? []) as Obj[])
      .filter((r) => r.ports === undefined || (r.ports as Obj[]).some((p) => p.port === "extender" || p.port === 8888));
    expect(rules).to.have.length(1);
    const from = rules[0]!.from as Obj[];
    expect(from).to.have.length(1);
    expect(from[0]!.namespaceSelector, "this namespace only").to.equal(undefined);
    expect(selects(from[0]!.podSelector, schedulerDeployment.spec.template.metadata.labels)).to.equal(true);
    expect(selects(from[0]!.podSelector, hvxLabels), "not hvx's own pods").to.equal(false);
  });

  it("given overlays/second-scheduler-gen-certs, holds the same objects without cert-manager's", () => {
    const withoutCertManager = objs.filter((o) => !String(o.apiVersion).startsWith("cert-manager.io/"));
    expect(withoutCertManager.length).to.be.lessThan(objs.length);
    expect(renderOverlay("second-scheduler-gen-certs").map(objectKey).sort()).to.deep.equal(withoutCertManager.map(objectKey).sort());
  });

  describe("gen-extender-certs.sh (no cert-manager)", () => {
    let dir = "";
    before(() => (dir = mkdtempSync(join(tmpdir(), "hvx-extender-certs-"))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("given --help, prints its usage and the order (script, then the overlay)", async () => {
      const { stdout } = await run(SCRIPT, ["--help"]);
      expect(stdout).to.match(/^Usage: manifests\/overlays\/second-scheduler\/gen-extender-certs\.sh/);
      expect(stdout).to.match(/gen-extender-certs\.sh\n\s+kubectl apply -k manifests\/overlays\/second-scheduler-gen-certs/);
    });

    it("given its files on an hvx listener configured as the overlay, serves the scheduler's certificate and refuses hvx's own as a client", async () => {
      await run(SCRIPT, ["--out", dir]);
      const file = (name: string) => join(dir, name);
      const listener = await startListener({
        name: "extender",
        portKey: "server.port",
        port: 0,
        host: "127.0.0.1",
        handler: (_req, res) => res.end("ok"),
        tls: { certFile: file("extender.crt"), keyFile: file("extender.key"), clientCAFile: file("ca.crt") },
        allowedClientNames: hvxConfig().server.tls!.allowedClientNames!,
        log: silentLogger(),
      });
      try {
        const call = (leaf: string) =>
          rawRequest({
            port: listener.port,
            path: "/filter",
            body: "{}",
            tls: {
              ca: readFileSync(file("ca.crt")),
              servername: "hvx.hvx-system.svc",
              cert: readFileSync(file(`${leaf}.crt`)),
              key: readFileSync(file(`${leaf}.key`)),
            },
            timeoutMs: 5000,
          }).then(
            (a) => `answered ${a.status}`,
            () => "refused",
          );
        expect(await call("scheduler-client")).to.equal("answered 200");
        expect(await call("extender")).to.equal("refused");
      } finally {
        await listener.close(100);
      }
    });

    it("given kubectl against the fake API server, writes Secrets hvx-extender-tls and hvx-scheduler-client-tls, one CA, and replaces them on a second run", async () => {
      // kubectl sends no bearer token over plain HTTP: its requests are the cluster admin's here.
      const fake = await startFakeKubeApiserver({ anonymousUser: "admin" });
      try {
        writeFileSync(join(dir, "kubeconfig"), fake.kubeconfigYaml("admin"));
        const kubectlDir = KUBECTL.includes("/") ? KUBECTL.slice(0, KUBECTL.lastIndexOf("/")) : "";
        const env = { PATH: `${kubectlDir ? `${kubectlDir}:` : ""}${process.env.PATH}`, HOME: dir, KUBECONFIG: join(dir, "kubeconfig") };
        const secret = async (name: string) => {
          const res = await fetch(`${fake.url}/api/v1/namespaces/hvx-system/secrets/${name}`, {
            headers: { Authorization: `Bearer ${FAKE_TOKENS.admin}` },
          });
          const data = ((await res.json()) as Obj).data as Record<string, string>;
          return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, "base64")]));
        };
        const { stdout } = await run(SCRIPT, [], { env });
        expect(stdout).to.match(
          /secrets hvx-system\/hvx-extender-tls and hvx-system\/hvx-scheduler-client-tls written \(client name hvx-scheduler\)/,
        );
        const serving = await secret("hvx-extender-tls");
        const client = await secret("hvx-scheduler-client-tls");
        expect(Object.keys(serving).sort()).to.deep.equal(["ca.crt", "tls.crt", "tls.key"]);
        expect(client["ca.crt"]!.equals(serving["ca.crt"]!), "one CA").to.equal(true);
        const ca = new X509Certificate(serving["ca.crt"]!);
        const servingCert = new X509Certificate(serving["tls.crt"]!);
        const clientCert = new X509Certificate(client["tls.crt"]!);
        expect([servingCert.verify(ca.publicKey), clientCert.verify(ca.publicKey)]).to.deep.equal([true, true]);
        expect(servingCert.checkHost("hvx.hvx-system.svc")).to.equal("hvx.hvx-system.svc");
        expect(clientCert.subject).to.equal("CN=hvx-scheduler");
        await run(SCRIPT, [], { env });
        expect((await secret("hvx-extender-tls"))["ca.crt"]!.equals(serving["ca.crt"]!), "renewal: a new CA").to.equal(false);
      } finally {
        await fake.close();
      }
    });
  });
});
