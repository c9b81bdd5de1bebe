import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse as parseYaml } from "yaml";
import { MANIFESTS_DIR, PROJECT_ROOT } from "./load-manifests.js";

/** Every file a user reads or runs: the docs, the manifests' comments, the sources (hints and usage texts). */
function readableFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return readableFiles(path);
    return /\.(md|ts|ya?ml|sh)$/.test(e.name) ? [path] : [];
  });
}

/** `kubectl -n NS ...` commands whose namespace is neither hvx's nor a system one, as `file: command`. */
function otherNamespaceCommands(files: readonly string[], ownNamespace: string): string[] {
  return files.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/kubectl (?:-n|--namespace)[ =]([a-z0-9-]+)/g)]
      .filter((m) => m[1] !== ownNamespace && m[1] !== "kube-system")
      .map((m) => `${relative(PROJECT_ROOT, file)}: ${m[0]}`),
  );
}

describe("the namespace in documented kubectl commands", () => {
  const ownNamespace = (parseYaml(readFileSync(join(MANIFESTS_DIR, "base", "namespace.yaml"), "utf8")) as { metadata: { name: string } })
    .metadata.name;

  it("given the README, docs/, manifests/ and src/, every `kubectl -n` names the manifests' namespace", () => {
    const files = [join(PROJECT_ROOT, "README.md"), ...["docs", "manifests", "src"].flatMap((d) => readableFiles(join(PROJECT_ROOT, d)))];
    expect(ownNamespace).to.equal("hvx-system");
    expect(otherNamespaceCommands(files, ownNamespace)).to.deep.equal([]);
  });
});
