import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { PROJECT_ROOT } from "./load-manifests.js";

interface Stage {
  from: string;
  name: string | undefined;
  lines: string[];
}

/** Splits a Dockerfile into stages (line continuations joined, comments dropped, ARGs expanded). */
function parseDockerfile(text: string): Stage[] {
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  const lines = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  for (const line of lines) {
    const arg = /^ARG\s+(\w+)=(\S+)$/.exec(line);
    if (arg !== null && stages.length === 0) args.set(arg[1]!, arg[2]!);
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from !== null) {
      const image = from[1]!.replace(/\$\{(\w+)\}/g, (_, name: string) => args.get(name) ?? "");
      stages.push({ from: image, name: from[2], lines: [] });
    } else {
      stages.at(-1)?.lines.push(line);
    }
  }
  return stages;
}

/** Static `import`/`export ... from` specifiers of one compiled ES module. */
function staticImports(js: string): string[] {
  const out: string[] = [];
  for (const m of js.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["'];/gm)) out.push(m[1]!);
  for (const m of js.matchAll(/^import\s*["']([^"']+)["'];/gm)) out.push(m[1]!);
  return out;
}

function listJs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listJs(join(dir, e.name)) : e.name.endsWith(".js") ? [join(dir, e.name)] : [],
  );
}

/** `@scope/pkg/sub` -> `@scope/pkg`, `pkg/sub` -> `pkg`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Folders of dist/ that a stage copies from the build stage: `COPY --from=build /app/dist/X ./dist/X`. */
function distDirs(stage: Stage): string[] {
  return stage.lines
    .filter((l) => l.startsWith("COPY"))
    .flatMap((l) => {
      const m = /^COPY --from=build \/app\/dist\/(\S+) \.\/dist\/(\S+)$/.exec(l);
      if (m === null) {
        expect(l, "dist/ is copied folder by folder").to.not.match(/dist/);
        return [];
      }
      expect(m[2], l).to.equal(m[1]);
      return [m[1]!];
    });
}

describe("Dockerfile", () => {
  const stages = parseDockerfile(readFileSync(join(PROJECT_ROOT, "Dockerfile"), "utf8"));
  const runtime = stages.at(-1)!;

  it("builds in a node:24-bookworm-slim stage with npm ci and the TypeScript build", () => {
    expect(stages.length).to.be.at.least(2);
    const build = stages[0]!;
    expect(build.from).to.equal("node:24-bookworm-slim");
    expect(build.lines.some((l) => /^RUN npm ci\b/.test(l))).to.equal(true);
    expect(build.lines.some((l) => /^RUN (npm run build|npx tsc)\b/.test(l))).to.equal(true);
  });

  it("ships production dependencies only, installed without scripts, and only dist/src", () => {
    const depsStage = stages.find((s) => s.lines.some((l) => /npm ci .*--omit=dev/.test(l) && /--ignore-scripts/.test(l)));
    expect(depsStage, "a stage running npm ci --omit=dev --ignore-scripts").to.not.equal(undefined);
    const copies = runtime.lines.filter((l) => l.startsWith("COPY"));
    const nodeModules = copies.find((l) => /node_modules/.test(l));
    if (depsStage !== runtime) expect(nodeModules).to.include(`--from=${depsStage!.name} `);
    expect(distDirs(runtime)).to.include("src");
    for (const dir of distDirs(runtime)) expect(dir, "tests and benchmarks stay out of the image").to.not.match(/^(test|bench)/);
    expect(
      copies.some((l) => /package\.json/.test(l)),
      "package.json carries type: module",
    ).to.equal(true);
  });

  it("runs as uid 65532 with the serve command as default", () => {
    expect(runtime.lines.filter((l) => l.startsWith("USER"))).to.deep.equal(["USER 65532:65532"]);
    const json = (keyword: string): unknown =>
      JSON.parse(runtime.lines.find((l) => l.startsWith(`${keyword} `))!.slice(keyword.length + 1));
    expect(json("ENTRYPOINT")).to.deep.equal(["node", "dist/src/cli.js"]);
    expect(json("CMD")).to.deep.equal(["serve", "--config", "/etc/hvx/config.yaml"]);
  });

  it("keeps local builds, dependencies and git out of the build context", () => {
    const ignored = readFileSync(join(PROJECT_ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim());
    expect(ignored).to.include.members(["node_modules", "dist", ".git"]);
  });

  it("given the image holds only the copied dist/ folders and production dependencies, every static import resolves there", () => {
    const roots = distDirs(runtime).map((d) => join(PROJECT_ROOT, "dist", d));
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...builtinModules]);
    const broken: string[] = [];
    for (const file of roots.flatMap(listJs)) {
      for (const spec of staticImports(readFileSync(file, "utf8"))) {
        const where = relative(PROJECT_ROOT, file);
        if (spec.startsWith(".")) {
          const target = resolve(dirname(file), spec);
          if (!roots.some((root) => !relative(root, target).startsWith(".."))) broken.push(`${where}: ${spec} is not in the image`);
        } else if (!spec.startsWith("node:") && !allowed.has(packageName(spec))) {
          broken.push(`${where}: ${spec} is not a production dependency`);
        }
      }
    }
    expect(broken).to.deep.equal([]);
  });
});
