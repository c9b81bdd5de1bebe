import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CORE = ["src/placement", "src/oversell", "src/quantity", "src/model", "src/random", "src/rebalance"];
const EDGES = [
  "src/vsphere",
  "src/prometheus",
  "src/http-client",
  "src/cluster",
  "src/server",
  "src/observability",
  "src/config",
  "src/simulate",
  "mocks",
];
const IMPURE_MODULES = [
  "express",
  "node-cache",
  "prom-client",
  "pino",
  "@kubernetes/client-node",
  "node:fs",
  "node:http",
  "node:https",
  "node:net",
  "fs",
  "http",
];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1]!);
}

describe("architecture: the pure core never reaches the edges", () => {
  for (const dir of CORE) {
    it(`${dir} imports no adapter folder and no I/O module`, () => {
      const offending: string[] = [];
      for (const file of sources(dir)) {
        for (const spec of importsOf(file)) {
          const target = spec.startsWith(".") ? relative(ROOT, join(ROOT, file, "..", spec)) : spec;
          if (EDGES.some((edge) => target.startsWith(`${edge}/`)) || IMPURE_MODULES.includes(spec)) offending.push(`${file} -> ${spec}`);
        }
      }
      expect(offending).to.deep.equal([]);
    });
  }

  it("mocks import nothing from the simulator (shared pieces live in src/random and the core)", () => {
    const offending = sources("mocks").flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith(".") && relative(ROOT, join(ROOT, file, "..", spec)).startsWith("src/simulate/"))
        .map((spec) => `${file} -> ${spec}`),
    );
    expect(offending).to.deep.equal([]);
  });

  it("only src/config reads process.env", () => {
    const readers = sources("src").filter(
      (f) => !f.startsWith("src/config/") && /process\.env\b/.test(readFileSync(join(ROOT, f), "utf8")),
    );
    expect(readers).to.deep.equal([]);
  });
});
