import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { freePort } from "./fixtures/net.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const bin = (JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { bin: Record<string, string> }).bin;

/** Runs the installed `kubectl-hvx` entry the way kubectl runs a plugin: the words after `kubectl hvx`. */
function kubectlHvx(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [`${ROOT}${bin["kubectl-hvx"]}`, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", ...env },
    timeout: 15_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("kubectl-hvx (kubectl plugin)", () => {
  it("is a bin entry of package.json, next to hvx", () => {
    expect(bin).to.include.keys("hvx", "kubectl-hvx");
  });

  it("given explain NAMESPACE/NAME and HVX_URL, asks that URL and says clearly when it cannot reach it", async () => {
    const port = await freePort();
    const r = kubectlHvx(["explain", "shop/web-1"], { HVX_URL: `http://127.0.0.1:${port}` });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`^kubectl hvx: cannot reach hvx at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
  });

  it("given explain --help, prints its usage and exits 0 without asking hvx", async () => {
    const port = await freePort();
    const r = kubectlHvx(["explain", "shop/web-1", "--help"], { HVX_URL: `http://127.0.0.1:${port}` });
    expect([r.status, r.stderr]).to.deep.equal([0, ""]);
    expect(r.stdout).to.match(/^Usage: kubectl hvx explain NAMESPACE\/NAME/);
  });

  it("given an unknown command, prints its usage and exits 64", () => {
    const r = kubectlHvx(["describe", "shop/web-1"]);
    expect(r.status).to.equal(64);
    expect(r.stderr).to.include("unknown command 'describe'").and.to.include("Usage: kubectl hvx explain NAMESPACE/NAME");
  });
});
