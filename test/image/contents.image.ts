import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IMAGE, PROJECT_ROOT, WorkingContainer, imageConfig, imageUnavailable, skipUnless } from "./image-fixture.js";

/** Runs a Node.js program inside the image as its USER and returns what it printed as JSON. */
function nodeJson<T>(ctr: WorkingContainer, program: string): T {
  const r = ctr.run(["node", "-e", program]);
  expect(r.status, r.stderr).to.equal(0);
  return JSON.parse(r.stdout) as T;
}

describe(`the image (${IMAGE}): contents and user`, function () {
  this.timeout(120_000);
  let ctr: WorkingContainer;

  before(function () {
    skipUnless(this, imageUnavailable());
    ctr = WorkingContainer.create();
  });
  after(() => ctr?.remove());

  it("runs node dist/src/cli.js serve --config /etc/hvx/config.yaml from /app as 65532:65532, on ports 8888, 8443 and 9090", () => {
    const config = imageConfig();
    expect(config.User).to.equal("65532:65532");
    expect(config.WorkingDir).to.equal("/app");
    expect(config.Entrypoint).to.deep.equal(["node", "dist/src/cli.js"]);
    expect(config.Cmd).to.deep.equal(["serve", "--config", "/etc/hvx/config.yaml"]);
    expect(Object.keys(config.ExposedPorts ?? {}).sort()).to.deep.equal(["8443/tcp", "8888/tcp", "9090/tcp"]);
    expect(config.Env).to.include("NODE_ENV=production");
  });

  it("starts the CLI as uid/gid 65532 without being told to", () => {
    const r = ctr.run(["node", "-p", "`${process.getuid()}:${process.getgid()} ${process.version}`"]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.match(/^65532:65532 v24\./);
    const help = ctr.run(["node", "dist/src/cli.js", "--help"]);
    expect(help.status, help.stderr).to.equal(0);
    expect(help.stdout).to.match(/^hvx: hypervisor-aware/);
  });

  it("holds only the compiled product: no test files, no TypeScript sources, no mocks or benchmarks", () => {
    const found = nodeJson<{ app: string[]; dist: string[]; offending: string[] }>(
      ctr,
      `const fs = require("fs"), path = require("path");
       const offending = [];
       const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
         const p = path.join(dir, e.name);
         if (e.isDirectory()) {
           if (p === "/app/node_modules") continue;
           if (/^(test|tests|__tests__|bench|mocks)$/.test(e.name) || (e.name === "src" && p !== "/app/dist/src")) offending.push(p);
           walk(p);
         }
         else if (/\\.(test|spec|bench)\\.js$|(?<!\\.d)\\.ts$|^tsconfig.*\\.json$|^\\.mocharc/.test(e.name)) offending.push(p);
         else if (e.name.endsWith(".js.map") && "sourcesContent" in JSON.parse(fs.readFileSync(p, "utf8"))) offending.push(p + " (embeds sources)");
       } };
       walk("/app");
       console.log(JSON.stringify({ app: fs.readdirSync("/app").sort(), dist: fs.readdirSync("/app/dist"), offending }));`,
    );
    expect(found.app).to.deep.equal(["dist", "node_modules", "package.json"]);
    expect(found.dist).to.deep.equal(["src"]);
    expect(found.offending).to.deep.equal([]);
  });

  it("holds exactly the lock file's production packages: none of the dev-only ones (typescript, mocha, chai, fast-check...), and no npm", () => {
    const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean }>;
    };
    const installed = Object.entries(lock.packages).filter(([path]) => path.startsWith("node_modules/"));
    const devOnly = installed.filter(([, p]) => p.dev === true).map(([path]) => path);
    const production = installed.filter(([, p]) => !p.dev && !p.devOptional && !p.optional).map(([path]) => path);
    expect(devOnly).to.include.members(["typescript", "mocha", "chai", "fast-check"].map((n) => `node_modules/${n}`));
    const others = ["node_modules/.bin/tsc", "node_modules/.bin/mocha", "/usr/local/lib/node_modules/npm", "/usr/local/bin/npm"];
    const present = nodeJson<Record<string, boolean>>(
      ctr,
      `const fs = require("fs"), path = require("path");
       const paths = ${JSON.stringify([...production, ...devOnly, ...others])};
       console.log(JSON.stringify(Object.fromEntries(paths.map((p) => [p, fs.existsSync(path.resolve("/app", p))]))));`,
    );
    expect(
      production.filter((p) => !present[p]),
      "production packages missing from the image",
    ).to.deep.equal([]);
    expect(
      [...devOnly, ...others].filter((p) => present[p]),
      "must not be in the image",
    ).to.deep.equal([]);
  });

  it("its user cannot write to /app or elsewhere in the image, only to /tmp", () => {
    const probes = [
      "/app",
      "/app/dist",
      "/app/dist/src",
      "/app/dist/src/config",
      "/app/node_modules",
      "/app/node_modules/express",
      "/",
      "/etc",
      "/usr/local/bin",
      "/home",
      "/root",
      "/opt",
      "/var",
      "/var/lib",
    ];
    const results = nodeJson<Record<string, string>>(
      ctr,
      `const fs = require("fs");
       const out = {};
       for (const dir of ${JSON.stringify([...probes, "/tmp"])}) {
         try { fs.writeFileSync(dir + "/hvx-write-probe", "x"); fs.rmSync(dir + "/hvx-write-probe"); out[dir] = "written"; }
         catch (err) { out[dir] = err.code; }
       }
       try { fs.appendFileSync("/app/package.json", " "); out["/app/package.json"] = "written"; } catch (err) { out["/app/package.json"] = err.code; }
       console.log(JSON.stringify(out));`,
    );
    expect(results["/tmp"]).to.equal("written");
    for (const dir of [...probes, "/app/package.json"]) expect(results[dir], dir).to.equal("EACCES");
  });

  it("has nothing writable to its user but /tmp and the Debian base's empty sticky directories (read-only in the pod)", () => {
    // -xdev: the image's own filesystem, not /proc, /sys, /dev or the files buildah binds in.
    const r = ctr.run(["find", "/", "-xdev", "-writable", "(", "-type", "d", "-o", "-type", "f", ")", "-printf", "%p %m %s\\n"]);
    const writable = r.stdout
      .trim()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.split(" "));
    expect(writable.map(([p]) => p)).to.include("/tmp");
    for (const [path, mode] of writable) {
      if (path === "/tmp") continue;
      // /var/tmp and /run/lock come with Debian (mode 1777); readOnlyRootFilesystem closes them,
      // which the security-context test checks by running the image with a read-only root.
      expect([path, mode], "writable outside /tmp").to.satisfy(
        ([p, m]: string[]) => ["/var/tmp", "/run/lock"].includes(p!) && m === "1777",
      );
      expect(ctr.run(["find", path!, "-mindepth", "1"]).stdout.trim(), `${path} holds nothing`).to.equal("");
    }
  });
});
