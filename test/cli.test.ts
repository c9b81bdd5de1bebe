import { expect } from "chai";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../src/cli.js", import.meta.url));
const PACKAGE = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

function hvx(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.once("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("hvx (the command line, as a process)", function () {
  this.timeout(20_000);
  let admin: Server;
  let requests = 0;
  let url = "";
  before(async () => {
    // Stands in for an admin port: every request to it is counted, so help can be shown to ask none.
    admin = createServer((_req, res) => {
      requests++;
      res.end("{}");
    });
    await new Promise<void>((r) => admin.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
  });
  after(() => admin.close());

  const helps: Array<{ name: string; args: string[]; usage: string }> = [
    { name: "serve --help", args: ["serve", "--help"], usage: "Usage: hvx serve [--config FILE]" },
    { name: "mock-vcenter -h", args: ["mock-vcenter", "-h"], usage: "Usage: hvx mock-vcenter [--port N]" },
    { name: "simulate --help", args: ["simulate", "--help"], usage: "Usage: hvx simulate --scenario FILE" },
    { name: "explain --help", args: ["explain", "--help"], usage: "Usage: hvx explain [--url URL]" },
    { name: "explain POD --url URL --help", args: ["explain", "shop/web-1", "--url", "URL", "--help"], usage: "Usage: hvx explain" },
    { name: "advise --url URL --help", args: ["advise", "--url", "URL", "--help"], usage: "Usage: hvx advise [--url URL]" },
    {
      name: "report oversell --url URL --help",
      args: ["report", "oversell", "--url", "URL", "--help"],
      usage: "Usage: hvx report oversell",
    },
  ];
  for (const c of helps)
    it(`given ${c.name}, prints that command's usage alone, exits 0 and asks nothing of the admin port`, async () => {
      requests = 0;
      const r = await hvx(
        c.args.map((a) => (a === "URL" ? url : a)),
        { HVX_URL: url },
      );
      expect(r.stderr).to.equal("");
      expect(r.status).to.equal(0);
      expect(r.stdout).to.match(new RegExp(`^${c.usage.replace(/[[\]()|.]/g, "\\$&")}`));
      expect(r.stdout.match(/Usage:/g)).to.have.length(1);
      expect(requests).to.equal(0);
    });

  it("given --help, lists every command", async () => {
    const r = await hvx(["--help"]);
    expect(r.status).to.equal(0);
    for (const command of ["serve", "mock-vcenter", "simulate", "explain", "report oversell", "advise"])
      expect(r.stdout).to.include(`hvx ${command} `);
  });

  it("given --version, prints package.json's version and the Node.js version", async () => {
    const r = await hvx(["--version"]);
    expect([r.status, r.stdout]).to.deep.equal([0, `hvx ${PACKAGE.version} (Node.js ${process.version})\n`]);
  });
});
