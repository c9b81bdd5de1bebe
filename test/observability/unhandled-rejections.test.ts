import { expect } from "chai";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const MODULE = fileURLToPath(new URL("../../src/observability/unhandled-rejections.js", import.meta.url));
const LOGGER = fileURLToPath(new URL("../../src/observability/logger.js", import.meta.url));

/** Runs `body` in a fresh Node process (Node's own unhandled-rejection mode, not mocha's). */
function run(body: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `
    import { Registry } from "prom-client";
    import { createLogger } from ${JSON.stringify(LOGGER)};
    import { installUnhandledRejectionHandler } from ${JSON.stringify(MODULE)};
    ${body}
  `;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script],
      { cwd: fileURLToPath(new URL("../../..", import.meta.url)) },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("installUnhandledRejectionHandler (in a child process)", function () {
  this.timeout(20_000);

  it("given rejections nobody handles, logs each, counts them in hvx_unhandled_rejections_total, and the process goes on", async () => {
    const out = await run(`
      const registry = new Registry();
      installUnhandledRejectionHandler(createLogger("error"), registry);
      void Promise.reject(new Error("watch reconnect: exec plugin failed\\nsecond line"));
      void Promise.reject("plain text reason");
      await new Promise((r) => setTimeout(r, 50));
      process.stdout.write(await registry.getSingleMetricAsString("hvx_unhandled_rejections_total") + "\\nSTILL RUNNING\\n");
    `);
    expect(out.code, out.stderr).to.equal(0);
    expect(out.stdout).to.match(/^hvx_unhandled_rejections_total 2$/m);
    expect(out.stdout).to.contain("STILL RUNNING");
    const logs = out.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { msg: string; error: string });
    expect(logs.map((l) => l.msg)).to.deep.equal(Array(2).fill("unhandled promise rejection; hvx keeps running"));
    expect(logs[0]!.error).to.match(/^Error: watch reconnect: exec plugin failed \| at /);
    expect(logs[0]!.error).to.not.contain("second line");
    expect(logs[1]!.error).to.equal("plain text reason");
  });

  it("given no handler installed, the same rejection ends the process (what hvx did before)", async () => {
    const out = await run(
      `void Promise.reject(new Error("boom")); await new Promise((r) => setTimeout(r, 50)); process.stdout.write("STILL RUNNING");`,
    );
    expect(out.code).to.not.equal(0);
    expect(out.stdout).to.not.contain("STILL RUNNING");
  });
});
