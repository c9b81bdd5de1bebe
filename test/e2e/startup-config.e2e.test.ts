import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../src/cli.js", import.meta.url));

/** Issue 8 section 1: a bad quantity stops start-up, naming the key and the value (it used to load and turn oversell off). */
describe("hvx serve with an invalid quantity in its configuration (child process)", function () {
  this.timeout(20_000);
  it('given admission.minCpu: "10 m", exits 1 before listening, naming the key and the bad value', () => {
    const dir = mkdtempSync(join(tmpdir(), "hvx-badcfg-"));
    try {
      const configPath = join(dir, "config.yaml");
      writeFileSync(configPath, 'admission:\n  minCpu: "10 m"\nburstGuard:\n  defaultMemory: 128 Mi\n');
      const run = spawnSync(process.execPath, [CLI, "serve", "--config", configPath], {
        encoding: "utf8",
        timeout: 15_000,
        env: { ...process.env, KUBECONFIG: "" },
      });
      expect(run.status).to.equal(1);
      expect(run.stderr).to.include('admission.minCpu: "10 m" is not a cpu quantity');
      expect(run.stderr).to.include('burstGuard.defaultMemory: "128 Mi" is not a memory quantity');
      expect(run.stdout).to.equal("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Issue 28: plain HTTP off this machine needs the operator's explicit word. */
describe("hvx serve with plain HTTP on every interface (child process)", function () {
  this.timeout(20_000);
  it("given a vCenter and no server.tls, exits 1 before listening, naming server.allowPlaintext", () => {
    const dir = mkdtempSync(join(tmpdir(), "hvx-plaintext-"));
    try {
      const configPath = join(dir, "config.yaml");
      writeFileSync(configPath, "vcenter:\n  url: http://127.0.0.1:1\nkubernetes:\n  enabled: false\n");
      const run = spawnSync(process.execPath, [CLI, "serve", "--config", configPath], {
        encoding: "utf8",
        timeout: 15_000,
        env: { ...process.env, KUBECONFIG: "" },
      });
      expect(run.status).to.equal(1);
      expect(run.stderr).to.include("server.allowPlaintext: the extender serves plain HTTP on every interface");
      expect(run.stderr).to.include("vcenter.allowPlaintext: vcenter.url is http://");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
