import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { MANIFESTS_DIR, type Obj } from "./load-manifests.js";

/** The overlays under manifests/overlays/ that this project owns and renders in its tests. */
export const OVERLAYS = [
  "extender",
  "extender-only",
  "second-scheduler",
  "second-scheduler-gen-certs",
  "webhook",
  "webhook-gen-certs",
] as const;
export type OverlayName = (typeof OVERLAYS)[number];

/** kubectl to render with: $HVX_KUBECTL, else the one on the PATH (.ci/run installs Debian's kubernetes-client). */
export const KUBECTL = process.env.HVX_KUBECTL ?? "kubectl";

/**
 * Renders manifests/overlays/<name> with `kubectl kustomize` (offline) and parses every object.
 * Throws with kubectl's message when it cannot render (a missing kubectl says so).
 */
export function renderOverlay(name: string): Obj[] {
  let out: string;
  try {
    out = execFileSync(KUBECTL, ["kustomize", join(MANIFESTS_DIR, "overlays", name)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    const e = err as { code?: string; stderr?: string; message: string };
    if (e.code === "ENOENT") throw new Error(`${KUBECTL} not found: install kubectl (Debian: kubernetes-client) or set HVX_KUBECTL`);
    // kustomize v2 (kubectl < 1.21) takes directories only under the deprecated `bases:`.
    const old = /must be a file/.test(e.stderr ?? "")
      ? " (kubectl older than 1.21: its kustomize cannot read `resources:` directories)"
      : "";
    throw new Error(`${KUBECTL} kustomize overlays/${name} failed${old}: ${e.stderr ?? e.message}`);
  }
  return parseAllDocuments(out)
    .map((d) => d.toJS() as unknown)
    .filter((o): o is Obj => typeof o === "object" && o !== null);
}

/** What `kubectl kustomize` prints on stderr for overlays/<name> (deprecation notices and other warnings). */
export function overlayWarnings(name: string): string {
  return spawnSync(KUBECTL, ["kustomize", join(MANIFESTS_DIR, "overlays", name)], { encoding: "utf8" }).stderr;
}

/** `Kind/namespace/name` (namespace empty for cluster-scoped objects). */
export function objectKey(o: Obj): string {
  return `${o.kind}/${o.metadata?.namespace ?? ""}/${o.metadata?.name}`;
}
