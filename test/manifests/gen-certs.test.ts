import { expect } from "chai";
import { execFile } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { stringify as toYaml } from "yaml";
import { FAKE_TOKENS, startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { MANIFESTS_DIR, type Obj } from "./load-manifests.js";
import { KUBECTL, renderOverlay } from "./render-overlay.js";
import { freePort } from "../fixtures/net.js";

const run = promisify(execFile);
const SCRIPT = join(MANIFESTS_DIR, "admission", "gen-certs.sh");

/**
 * The documented order for clusters without cert-manager (manifests/README.md, docs/install.md):
 * apply overlays/webhook-gen-certs, then run gen-certs.sh. Both run for real here: kubectl against the
 * fake API server, with the rendered overlay's MutatingWebhookConfiguration.
 */
describe("manifests/admission/gen-certs.sh against the fake API server", function () {
  this.timeout(60_000);
  let fake: FakeKubeApiserver;
  let dir: string;
  let server: string;
  let env: NodeJS.ProcessEnv;

  const script = (...args: string[]) => run(SCRIPT, args, { env });
  const getJson = async (path: string): Promise<{ status: number; body: Obj }> => {
    const res = await fetch(`${server}${path}`, { headers: { Authorization: `Bearer ${FAKE_TOKENS.admin}` } });
    return { status: res.status, body: (await res.json()) as Obj };
  };

  before(async () => {
    // kubectl sends no bearer token over plain HTTP: its requests are the cluster admin's here.
    fake = await startFakeKubeApiserver({ anonymousUser: "admin" });
    dir = mkdtempSync(join(tmpdir(), "hvx-gen-certs-"));
    // gen-certs.sh is run by the cluster admin at install time.
    writeFileSync(join(dir, "kubeconfig"), fake.kubeconfigYaml("admin"));
    server = fake.url;
    // kubectl from KUBECTL first on the PATH; its discovery cache in the temporary HOME.
    const kubectlDir = KUBECTL.includes("/") ? KUBECTL.slice(0, KUBECTL.lastIndexOf("/")) : "";
    env = { PATH: `${kubectlDir ? `${kubectlDir}:` : ""}${process.env.PATH}`, HOME: dir, KUBECONFIG: join(dir, "kubeconfig") };
  });

  after(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("given --help, prints its usage and the order (overlay first), not its code", async () => {
    const { stdout } = await script("--help");
    expect(stdout).to.match(/^Usage: manifests\/admission\/gen-certs\.sh/);
    expect(stdout).to.match(/kubectl apply -k manifests\/overlays\/webhook-gen-certs\n\s+manifests\/admission\/gen-certs\.sh/);
    expect(stdout).to.not.match(/set -euo pipefail|namespace=hvx-system/);
  });

  it("given no reachable cluster, says so first (naming the context) and nothing else, and writes nothing", async () => {
    // A kubeconfig whose server refuses connections: a port that was free a moment ago.
    const port = await freePort();
    writeFileSync(join(dir, "unreachable"), fake.kubeconfigYaml("admin").replace(/http:\/\/127\.0\.0\.1:\d+/, `http://127.0.0.1:${port}`));
    const err = (await run(SCRIPT, [], { env: { ...env, KUBECONFIG: join(dir, "unreachable") } }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code: number; stderr: string } | undefined;
    expect(err, "the script fails").to.not.equal(undefined);
    expect(err!.code).to.equal(1);
    expect(err!.stderr).to.match(/^cannot reach the cluster of kubectl's context '[^']+' \(KUBECONFIG, --context\): .*connection refused/);
    expect(err!.stderr).to.not.include("not found");
  });

  it("given the webhook configuration does not exist yet, stops with a message saying what to apply first and writes no Secret", async () => {
    const err = (await script().then(
      () => undefined,
      (e: unknown) => e,
    )) as { code: number; stderr: string } | undefined;
    expect(err, "the script fails").to.not.equal(undefined);
    expect(err!.code).to.equal(1);
    expect(err!.stderr).to.match(
      /mutatingwebhookconfiguration\/hvx not found: apply it first \(kubectl apply -k manifests\/overlays\/webhook-gen-certs\)/,
    );
    expect((await getJson("/api/v1/namespaces/hvx-system/secrets/hvx-webhook-tls")).status).to.equal(404);
  });

  it("given the overlay's configuration applied with kubectl, writes the Secret and sets caBundle to the CA that signed hvx's serving certificate", async () => {
    const mwc = renderOverlay("webhook-gen-certs").find((o) => o.kind === "MutatingWebhookConfiguration")!;
    writeFileSync(join(dir, "mwc.yaml"), toYaml(mwc));
    await run("kubectl", ["apply", "--validate=false", "-f", join(dir, "mwc.yaml")], { env });

    const { stdout } = await script();
    expect(stdout).to.match(/caBundle of mutatingwebhookconfiguration\/hvx set \(1 webhook\(s\)\)/);
    const secret = (await getJson("/api/v1/namespaces/hvx-system/secrets/hvx-webhook-tls")).body;
    expect(Object.keys(secret.data).sort()).to.deep.equal(["ca.crt", "tls.crt", "tls.key"]);
    const stored = (await getJson("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/hvx")).body;
    expect(stored.webhooks[0].clientConfig.caBundle).to.equal(secret.data["ca.crt"]);
    expect(stored.webhooks[0].clientConfig.service, "the rest of the configuration is untouched").to.deep.equal(
      mwc.webhooks[0].clientConfig.service,
    );
    const ca = new X509Certificate(Buffer.from(secret.data["ca.crt"], "base64"));
    const cert = new X509Certificate(Buffer.from(secret.data["tls.crt"], "base64"));
    expect(cert.verify(ca.publicKey), "signed by the CA in caBundle").to.equal(true);
    expect(cert.checkHost("hvx.hvx-system.svc")).to.equal("hvx.hvx-system.svc");
  });

  it("given a second run (renewal), replaces the Secret and the caBundle together with a new CA", async () => {
    const before = (await getJson("/api/v1/namespaces/hvx-system/secrets/hvx-webhook-tls")).body.data["ca.crt"];
    await script();
    const after = (await getJson("/api/v1/namespaces/hvx-system/secrets/hvx-webhook-tls")).body.data["ca.crt"];
    const stored = (await getJson("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/hvx")).body;
    expect(after).to.not.equal(before);
    expect(stored.webhooks[0].clientConfig.caBundle).to.equal(after);
  });
});
