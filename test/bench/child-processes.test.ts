import { expect } from "chai";
import { spawn } from "node:child_process";

const MODULE = new URL("../../bench/child-processes.js", import.meta.url).href;

/**
 * A parent that starts one idle child through `endsWithThisProcess`, prints the child's pid, then
 * either waits to be signalled or exits by itself.
 */
function startParent(exitBySelf: boolean): { parent: ReturnType<typeof spawn>; childPid: Promise<number> } {
  const script = `
    import { spawn } from "node:child_process";
    import { endsWithThisProcess } from ${JSON.stringify(MODULE)};
    const child = endsWithThisProcess(spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }));
    console.log(child.pid);
    ${exitBySelf ? "setTimeout(() => process.exit(0), 200);" : "setInterval(() => {}, 1000);"}
  `;
  const parent = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const childPid = new Promise<number>((resolve) => parent.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
  return { parent, childPid };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

describe("a benchmark's children end with it (endsWithThisProcess)", () => {
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const)
    it(`a benchmark process sent ${signal} alone ends its child and exits as killed by it`, async () => {
      const { parent, childPid } = startParent(false);
      const pid = await childPid;
      try {
        expect(alive(pid)).to.equal(true);
        const exited = new Promise<number | null>((resolve) => parent.once("exit", (code) => resolve(code)));
        parent.kill(signal);
        expect(await exited).to.equal(128 + { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[signal]);
        expect(await gone(pid, 5000)).to.equal(true);
      } finally {
        if (alive(pid)) process.kill(pid, "SIGKILL");
      }
    });

  it("a benchmark process that exits by itself ends its child", async () => {
    const { parent, childPid } = startParent(true);
    const pid = await childPid;
    try {
      await new Promise((resolve) => parent.once("exit", resolve));
      expect(await gone(pid, 5000)).to.equal(true);
    } finally {
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
