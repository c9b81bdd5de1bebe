import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** govmomi's vCenter simulator (scripts/build-vcsim.sh), started on a loopback port for one test file. */
export interface Vcsim {
  /** e.g. http://127.0.0.1:PORT (no path): what `vcenter.url` takes. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  stop(): Promise<void>;
}

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
export const VCSIM_MISSING =
  "vcsim cannot be built (Debian packages golang-go and golang-github-vmware-govmomi-dev: scripts/build-vcsim.sh); skipping the vcsim tests";

/** Whether the packages the build needs are there (the tests never install anything). */
function buildable(): boolean {
  try {
    execFileSync("dpkg", ["-s", "golang-go", "golang-github-vmware-govmomi-dev"], { stdio: "ignore" });
    return existsSync("/usr/share/gocode/src/github.com/vmware/govmomi/simulator");
  } catch {
    return false;
  }
}

/**
 * In a mocha hook: builds (or reuses the cached) vcsim and starts it; skips when it cannot be
 * built, or fails under HVX_VCSIM_REQUIRED=1 (CI, which installs the packages).
 */
export async function startVcsim(ctx: Mocha.Context, model: { hosts: number; standalone: number; vms: number }): Promise<Vcsim> {
  if (!buildable()) {
    if (process.env.HVX_VCSIM_REQUIRED === "1") throw new Error(`${VCSIM_MISSING} (but HVX_VCSIM_REQUIRED=1)`);
    console.log(`      ${VCSIM_MISSING}`);
    return ctx.skip();
  }
  const out = execFileSync("bash", ["scripts/build-vcsim.sh"], { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const bin = out.trim().split("\n").pop()!;
  const username = "hvx-reader";
  const password = "vcsim-pass";
  const args = ["-hosts", String(model.hosts), "-standalone", String(model.standalone), "-vms", String(model.vms)];
  const child = spawn(bin, [...args, "-username", username, "-password", password], { stdio: ["ignore", "pipe", "pipe"] });
  const sdk = await firstLine(child);
  return { url: new URL(sdk).origin, username, password, stop: () => stopChild(child) };
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve(line.trim()));
    child.once("exit", (code) => reject(new Error(`vcsim exited ${code} before printing its URL: ${stderr.slice(0, 500)}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
