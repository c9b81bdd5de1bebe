import { join } from "node:path";
import { findOne, loadManifests, type Obj } from "../manifests/load-manifests.js";
import { imageConfig, projectVolume, type PodRun } from "./image-fixture.js";

/** manifests/base/deployment.yaml: the pod spec and its hvx container. */
export function hvxDeployment(): { namespace: string; pod: Obj; container: Obj } {
  const { docs } = loadManifests();
  const deployment = findOne(docs, "Deployment", "hvx").obj;
  const pod: Obj = deployment.spec.template.spec;
  const container = (pod.containers as Obj[]).find((c) => c.name === "hvx");
  if (container === undefined) throw new Error("manifests/base/deployment.yaml has no container named hvx");
  return { namespace: deployment.metadata.namespace, pod, container };
}

/** The image's USER as numbers (`65532:65532`); names cannot be checked by runAsNonRoot. */
export function imageUser(): { uid: number; gid: number | undefined } {
  const user = imageConfig().User ?? "";
  const m = /^(\d+)(?::(\d+))?$/.exec(user);
  if (m === null) throw new Error(`the image's USER '${user}' is not numeric uid[:gid]`);
  return { uid: Number(m[1]), gid: m[2] === undefined ? undefined : Number(m[2]) };
}

/** Kubernetes quantity (`16Mi`, `64M`, `1Gi`, bytes) to bytes, for emptyDir.sizeLimit. */
function bytes(quantity: string): number {
  const m = /^(\d+(?:\.\d+)?)([KMGT]i?)?$/.exec(quantity);
  if (m === null) throw new Error(`unsupported quantity ${quantity}`);
  const unit = m[2] ?? "";
  const power = { "": 0, K: 1, M: 2, G: 3, T: 4 }[unit.replace("i", "") as "" | "K" | "M" | "G" | "T"];
  return Math.round(Number(m[1]) * (unit.endsWith("i") ? 1024 : 1000) ** power);
}

/**
 * The hvx container of manifests/base/deployment.yaml as a PodRun: its args, env (fieldRefs filled
 * in), the pod's and container's securityContext, and every volumeMount. ConfigMap and Secret
 * volumes are projected from `contents` (volume name -> file name -> text) under `hostDir`
 * with the manifest's defaultMode and the pod's fsGroup; emptyDirs become a tmpfs of their
 * sizeLimit. `override` replaces command, args or adds env, as a test needs.
 */
export function podRunFromDeployment(
  hostDir: string,
  contents: Record<string, Record<string, string>>,
  override: { command?: string[]; args?: string[]; env?: Record<string, string> } = {},
): PodRun {
  const { namespace, pod, container } = hvxDeployment();
  const podSc: Obj = pod.securityContext ?? {};
  const sc: Obj = container.securityContext ?? {};
  const user = imageUser();
  const uid: number = sc.runAsUser ?? podSc.runAsUser ?? user.uid;
  const gid: number = sc.runAsGroup ?? podSc.runAsGroup ?? user.gid ?? 0;
  const fsGroup: number | undefined = podSc.fsGroup;

  const fields: Record<string, string> = { "metadata.namespace": namespace, "metadata.name": "hvx-image-test-0" };
  const env: Record<string, string> = {};
  for (const e of (container.env ?? []) as Obj[]) {
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.fieldRef?.fieldPath in fields) env[e.name] = fields[e.valueFrom.fieldRef.fieldPath]!;
    else throw new Error(`env ${e.name}: only value and fieldRef ${Object.keys(fields).join(", ")} are supported here`);
  }

  const binds: Array<{ source: string; target: string; readOnly: boolean }> = [];
  const tmpfs: Array<{ target: string; sizeBytes: number }> = [];
  for (const m of (container.volumeMounts ?? []) as Obj[]) {
    const volume = ((pod.volumes ?? []) as Obj[]).find((v) => v.name === m.name);
    if (volume === undefined) throw new Error(`volumeMount ${m.name} has no volume`);
    if (volume.emptyDir !== undefined) {
      tmpfs.push({ target: m.mountPath, sizeBytes: bytes(volume.emptyDir.sizeLimit ?? "64Mi") });
      continue;
    }
    const source = volume.secret ?? volume.configMap;
    if (source === undefined) throw new Error(`volume ${m.name}: only configMap, secret and emptyDir are supported here`);
    const dir = projectVolume(join(hostDir, m.name), contents[m.name] ?? {}, source.defaultMode ?? 0o644, fsGroup ?? 0);
    // ConfigMap and Secret volumes are always read-only in Kubernetes.
    binds.push({ source: m.subPath ? join(dir, m.subPath) : dir, target: m.mountPath, readOnly: true });
  }

  return {
    ...((override.command ?? container.command) ? { command: override.command ?? container.command } : {}),
    ...((override.args ?? container.args) ? { args: override.args ?? container.args } : {}),
    env: { ...env, ...override.env },
    uid,
    gid,
    ...(fsGroup !== undefined ? { fsGroup } : {}),
    readOnlyRootFilesystem: sc.readOnlyRootFilesystem === true,
    binds,
    tmpfs,
  };
}
