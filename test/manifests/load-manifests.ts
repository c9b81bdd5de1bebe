import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

/** Project root, from dist/test/manifests/ (compiled) three levels up. */
export const PROJECT_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const MANIFESTS_DIR = join(PROJECT_ROOT, "manifests");

/** A loosely typed Kubernetes object as read from YAML; tests narrow it field by field. */
export type Obj = Record<string, any>;

export interface ManifestDoc {
  /** Path relative to manifests/, e.g. `deployment.yaml` or `admission/webhook.yaml`. */
  file: string;
  obj: Obj;
}

export interface ParseProblem {
  file: string;
  message: string;
}

/** Every `.yaml`/`.yml` file under `dir`, recursively, sorted. */
export function listYamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listYamlFiles(path));
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/**
 * Parses every YAML document of every file under manifests/. Empty documents (a file that is
 * only comments, or a trailing `---`) are skipped; syntax errors are returned, not thrown.
 */
export function loadManifests(dir = MANIFESTS_DIR): { docs: ManifestDoc[]; problems: ParseProblem[] } {
  const docs: ManifestDoc[] = [];
  const problems: ParseProblem[] = [];
  const files = listYamlFiles(dir);
  const patches = new Set(files.flatMap(patchFilesOf));
  for (const path of files) {
    const file = relative(dir, path);
    // A kustomize patch is a fragment of an object defined elsewhere (rendered in overlays.test.ts).
    if (patches.has(path)) continue;
    for (const doc of parseAllDocuments(readFileSync(path, "utf8"))) {
      for (const err of [...doc.errors, ...doc.warnings]) problems.push({ file, message: err.message });
      const value: unknown = doc.toJS();
      if (value === null || value === undefined) continue;
      if (typeof value !== "object" || Array.isArray(value)) {
        problems.push({ file, message: "a document is not a mapping" });
        continue;
      }
      docs.push({ file, obj: value as Obj });
    }
  }
  return { docs, problems };
}

/** The files a kustomization.yaml lists under `patches:` (`- path: FILE`), as absolute paths. */
function patchFilesOf(path: string): string[] {
  if (basename(path) !== "kustomization.yaml") return [];
  const k = parseAllDocuments(readFileSync(path, "utf8"))[0]?.toJS() as { patches?: Array<{ path?: string }> } | null;
  return (k?.patches ?? []).flatMap((p) => (p.path === undefined ? [] : [join(dirname(path), p.path)]));
}

/** The single document of `kind` named `name`; throws a readable error when absent or duplicated. */
export function findOne(docs: readonly ManifestDoc[], kind: string, name: string): ManifestDoc {
  const hits = docs.filter((d) => d.obj.kind === kind && d.obj.metadata?.name === name);
  if (hits.length !== 1) throw new Error(`expected exactly one ${kind} ${name} under manifests/, found ${hits.length}`);
  return hits[0]!;
}

/** Leaf paths of a plain-object tree; arrays and empty objects are leaves. */
export function leafPaths(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value) || Object.keys(value).length === 0) {
    return prefix === "" ? [] : [prefix];
  }
  return Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : leafPaths(v, prefix === "" ? k : `${prefix}.${k}`)));
}

/** The value at a dotted path, or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const key of path.split(".")) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const BINARY_SUFFIX: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };

/** Enough of resource.Quantity for these manifests: `100m`, `1`, `0.5`, `256Mi`, `1Gi`. */
export function quantityToNumber(q: string | number): number {
  if (typeof q === "number") return q;
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi)?$/.exec(q);
  if (m === null) throw new Error(`unsupported quantity in a manifest: ${q}`);
  const n = Number(m[1]);
  if (m[2] === "m") return n / 1000;
  return m[2] === undefined ? n : n * BINARY_SUFFIX[m[2]]!;
}
