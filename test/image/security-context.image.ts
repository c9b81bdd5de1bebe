import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Obj } from "../manifests/load-manifests.js";
import { hvxDeployment, imageUser, podRunFromDeployment } from "./deployment.js";
import { IMAGE, WorkingContainer, imageConfig, imageUnavailable, podRunUnavailable, skipUnless, startLikePod } from "./image-fixture.js";

/**
 * manifests/base/deployment.yaml's securityContext against the built image: what the manifests
 * promise (non-root, read-only root filesystem, no privilege escalation, no capabilities,
 * RuntimeDefault seccomp) must be what the image needs. serve.image.ts runs hvx itself that way.
 */
describe(`manifests' securityContext fits the image (${IMAGE})`, function () {
  this.timeout(120_000);
  const { pod, container } = hvxDeployment();
  const podSc: Obj = pod.securityContext ?? {};
  const sc: Obj = container.securityContext ?? {};

  before(function () {
    skipUnless(this, imageUnavailable());
  });

  it("runAsNonRoot: the image's USER is a numeric uid other than 0, the uid and gid the Deployment runs as", () => {
    expect(sc.runAsNonRoot ?? podSc.runAsNonRoot).to.equal(true);
    const user = imageUser();
    expect(user.uid).to.not.equal(0);
    expect(sc.runAsUser ?? podSc.runAsUser ?? user.uid).to.equal(user.uid);
    expect(sc.runAsGroup ?? podSc.runAsGroup ?? user.gid).to.equal(user.gid);
  });

  it("allowPrivilegeEscalation false and capabilities drop ALL: hvx needs no capability (unprivileged ports, the ones the image exposes)", () => {
    expect(sc.allowPrivilegeEscalation).to.equal(false);
    expect(sc.privileged ?? false).to.equal(false);
    expect(sc.capabilities?.drop).to.include("ALL");
    expect(sc.capabilities?.add ?? []).to.deep.equal([]);
    const ports = (container.ports as Obj[]).map((p) => p.containerPort as number);
    for (const port of ports) expect(port, "no CAP_NET_BIND_SERVICE needed").to.be.at.least(1024);
    expect(ports.map((p) => `${p}/tcp`).sort()).to.deep.equal(Object.keys(imageConfig().ExposedPorts ?? {}).sort());
  });

  it("seccompProfile RuntimeDefault: Node.js serves HTTP under the container runtime's default seccomp filter", () => {
    expect((sc.seccompProfile ?? podSc.seccompProfile)?.type).to.equal("RuntimeDefault");
    const ctr = WorkingContainer.create();
    try {
      // buildah run applies containers-common's default profile, the lineage of RuntimeDefault.
      const r = ctr.run([
        "node",
        "-e",
        `const http = require("http"), fs = require("fs");
         const seccomp = /^Seccomp:\\s*(\\d)/m.exec(fs.readFileSync("/proc/self/status", "utf8"))[1];
         const server = http.createServer((q, s) => s.end("ok")).listen(0, "127.0.0.1", async () => {
           const body = await (await fetch("http://127.0.0.1:" + server.address().port)).text();
           console.log(seccomp + " " + body); server.close();
         });`,
      ]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout.trim()).to.equal("2 ok");
    } finally {
      ctr.remove();
    }
  });

  it("readOnlyRootFilesystem: an emptyDir at /tmp, and with a read-only root the image's user can write there and nowhere else", async function () {
    expect(sc.readOnlyRootFilesystem).to.equal(true);
    const tmp = (container.volumeMounts as Obj[]).find((m) => m.mountPath === "/tmp");
    expect(tmp, "a volumeMount at /tmp").to.not.equal(undefined);
    expect((pod.volumes as Obj[]).find((v) => v.name === tmp!.name)?.emptyDir, "the /tmp volume is an emptyDir").to.not.equal(undefined);

    skipUnless(this, podRunUnavailable());
    const dir = mkdtempSync(join(tmpdir(), "hvx-image-ro-"));
    const targets = [
      "/tmp",
      "/app",
      "/app/dist/src",
      "/app/node_modules",
      "/var/tmp",
      "/run/lock",
      "/etc/hvx",
      "/etc/hvx/vcenter-credentials",
      "/",
    ];
    const run = await startLikePod(
      podRunFromDeployment(
        dir,
        { config: { "config.yaml": "{}\n" } },
        {
          command: [
            "node",
            "-e",
            `const fs = require("fs"), os = require("os"), out = { tmpdir: os.tmpdir() };
           for (const d of ${JSON.stringify(targets)}) {
             try { fs.writeFileSync(d.replace(/\\/$/, "") + "/hvx-write-probe", "x"); out[d] = "written"; } catch (err) { out[d] = err.code; }
           }
           console.log(JSON.stringify(out));`,
          ],
        },
      ),
    );
    try {
      const exit = await run.exited;
      expect(exit.code, run.output()).to.equal(0);
      const out = JSON.parse(run.output().trim().split("\n").at(-1)!) as Record<string, string>;
      expect(out.tmpdir).to.equal("/tmp");
      expect(out["/tmp"]).to.equal("written");
      for (const d of targets.slice(1)) expect(out[d], d).to.be.oneOf(["EROFS", "EACCES"]);
      for (const d of ["/var/tmp", "/run/lock"]) expect(out[d], `${d} is writable in the image, not in the pod`).to.equal("EROFS");
    } finally {
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
