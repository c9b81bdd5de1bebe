import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Helpers for the tests of the built container image (`npm run test:image`, after
 * scripts/build-image.sh). They need buildah; the runs "like a pod" also need root. Where that
 * is missing the tests skip with the reason, unless HVX_IMAGE_REQUIRED=1 (CI), where they fail.
 */

export const PROJECT_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string }).version;
/** Same default as scripts/build-image.sh. */
export const IMAGE = process.env.HVX_IMAGE ?? `localhost/hvx:${VERSION}`;
const REQUIRED = process.env.HVX_IMAGE_REQUIRED === "1";

/** Why the image cannot be examined here (buildah missing or the image not built), or undefined. */
export function imageUnavailable(): string | undefined {
  const version = spawnSync("buildah", ["--version"], { encoding: "utf8" });
  if (version.error !== undefined) return "buildah is not installed (Debian: apt-get install buildah debootstrap)";
  const inspect = spawnSync("buildah", ["inspect", "--type", "image", IMAGE], { encoding: "utf8" });
  if (inspect.status !== 0) {
    const why = /image not known/.test(inspect.stderr) ? "" : `: ${inspect.stderr.trim()}`;
    return `image ${IMAGE} is not built (run scripts/build-image.sh, or npm run test:image)${why}`;
  }
  return undefined;
}

/** Why a process cannot be run like a pod here (see startLikePod), or undefined. */
export function podRunUnavailable(): string | undefined {
  const missing = imageUnavailable();
  if (missing !== undefined) return missing;
  if (process.getuid?.() !== 0) return "running the image like a pod (mount namespace, read-only root, chroot) needs root";
  for (const tool of ["unshare", "setpriv", "chroot", "mount"]) {
    if (spawnSync(tool, ["--version"]).error !== undefined) return `${tool} (util-linux/coreutils) is not installed`;
  }
  return undefined;
}

/** In a mocha `before`: skips the suite with the reason printed, or fails under HVX_IMAGE_REQUIRED=1. */
export function skipUnless(ctx: Mocha.Context, reason: string | undefined): void {
  if (reason === undefined) return;
  if (REQUIRED) throw new Error(`${reason} (HVX_IMAGE_REQUIRED=1)`);
  process.stdout.write(`      skipped: ${reason}\n`);
  ctx.skip();
}

export function buildah(args: readonly string[]): string {
  return execFileSync("buildah", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });
}

export interface ImageConfig {
  User?: string;
  Env?: string[];
  Entrypoint?: string[];
  Cmd?: string[];
  WorkingDir?: string;
  ExposedPorts?: Record<string, unknown>;
}

export function imageConfig(image = IMAGE): ImageConfig {
  return (JSON.parse(buildah(["inspect", "--type", "image", image])) as { OCIv1: { config: ImageConfig } }).OCIv1.config;
}

/** Uncompressed size of the image's layers, bytes (what `buildah images` shows). */
export function imageBytes(image = IMAGE): number {
  const manifest = JSON.parse((JSON.parse(buildah(["inspect", "--type", "image", image])) as { Manifest: string }).Manifest) as {
    layers: Array<{ size: number }>;
  };
  return manifest.layers.reduce((sum, l) => sum + l.size, 0);
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A working container of the image; `run` executes inside it with buildah's own chroot isolation, as the image's USER. */
export class WorkingContainer {
  private constructor(readonly id: string) {}

  static create(image = IMAGE): WorkingContainer {
    return new WorkingContainer(buildah(["from", "--pull=never", "--quiet", image]).trim());
  }

  run(argv: readonly string[], opts: { user?: string } = {}): RunResult {
    const user = opts.user !== undefined ? ["--user", opts.user] : [];
    const r = spawnSync("buildah", ["run", "--isolation", "chroot", "--network", "host", ...user, this.id, "--", ...argv], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
      timeout: 60_000,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  remove(): void {
    spawnSync("buildah", ["rm", this.id]);
  }
}

/** How the kubelet would run one container: the parts of a pod spec that the image has to fit. */
export interface PodRun {
  image?: string;
  /** A container's `command`: replaces the image's ENTRYPOINT (and then its CMD). */
  command?: readonly string[];
  /** A container's `args`: replaces the image's CMD. */
  args?: readonly string[];
  env?: Record<string, string>;
  uid: number;
  gid: number;
  /** Supplementary group (the pod's fsGroup). */
  fsGroup?: number;
  readOnlyRootFilesystem: boolean;
  /** Bind mounts of host files or folders, read-only unless said otherwise. */
  binds?: ReadonlyArray<{ source: string; target: string; readOnly?: boolean }>;
  /** emptyDir volumes: a tmpfs each. */
  tmpfs?: ReadonlyArray<{ target: string; sizeBytes: number }>;
}

export interface PodProcess {
  child: ChildProcess;
  /** Host pid of the container's first process (pid 1 in its own pid namespace). */
  pid: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills what is left and removes the working container. */
  dispose: () => Promise<void>;
}

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Starts the image's ENTRYPOINT + CMD (or the given command / args) the way a container runtime does under the manifests'
 * securityContext: its own mount and pid namespaces (the process is pid 1, so SIGTERM only works
 * if the program handles it), the root filesystem read-only when asked, a private /dev and /proc,
 * emptyDirs as tmpfs, the given uid/gid, no_new_privs, no capabilities (a non-root uid keeps
 * none). The host network, as `--network host`.
 */
export async function startLikePod(spec: PodRun): Promise<PodProcess> {
  const image = spec.image ?? IMAGE;
  const config = imageConfig(image);
  const ctr = buildah(["from", "--pull=never", "--quiet", image]).trim();
  const root = buildah(["mount", ctr]).trim();
  // Mount points are made in the container's own layer before the root turns read-only, as runc does.
  for (const b of spec.binds ?? []) {
    const at = join(root, b.target);
    mkdirSync(dirname(at), { recursive: true });
    if (!existsSync(at)) {
      if (statSync(b.source).isDirectory()) mkdirSync(at);
      else writeFileSync(at, "");
    }
  }
  const env = [...(config.Env ?? []), ...Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${v}`)];
  const argv =
    spec.command !== undefined
      ? [...spec.command, ...(spec.args ?? [])]
      : [...(config.Entrypoint ?? []), ...(spec.args ?? config.Cmd ?? [])];
  const script = [
    "set -e",
    `R=${q(root)}`,
    'mount --bind "$R" "$R"',
    spec.readOnlyRootFilesystem ? 'mount -o remount,bind,ro "$R"' : "",
    'mount -t proc proc "$R/proc"',
    'mount -t tmpfs -o mode=0755,size=65536 tmpfs "$R/dev"',
    'for d in null zero full random urandom tty; do touch "$R/dev/$d"; mount --bind "/dev/$d" "$R/dev/$d"; done',
    'ln -s /proc/self/fd "$R/dev/fd"',
    ...(spec.tmpfs ?? []).map((t) => `mount -t tmpfs -o mode=1777,size=${t.sizeBytes} tmpfs "$R"${q(t.target)}`),
    ...(spec.binds ?? []).flatMap((b) => [
      `mount --bind ${q(b.source)} "$R"${q(b.target)}`,
      b.readOnly === false ? "" : `mount -o remount,bind,ro "$R"${q(b.target)}`,
    ]),
    `exec setpriv --no-new-privs chroot --userspec=${spec.uid}:${spec.gid} --groups=${spec.fsGroup ?? spec.gid} "$R" ` +
      `/usr/bin/env -i -C ${q(config.WorkingDir || "/")} ${env.map(q).join(" ")} ${argv.map(q).join(" ")}`,
  ]
    .filter((l) => l !== "")
    .join("\n");
  const child = spawn("unshare", ["--mount", "--pid", "--fork", "--propagation", "private", "sh", "-c", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => (done = true));
  const pid = await firstChild(child.pid!, () => done);
  const dispose = async (): Promise<void> => {
    if (!done) {
      try {
        process.kill(pid ?? child.pid!, "SIGKILL");
      } catch {
        /* gone already */
      }
      await exited;
    }
    spawnSync("buildah", ["umount", ctr]);
    spawnSync("buildah", ["rm", ctr]);
  };
  return { child, pid: pid ?? child.pid!, output: () => output, exited, dispose };
}

/** unshare --fork's child: the container's pid 1 as the host sees it (undefined if it ended first). */
async function firstChild(parent: number, ended: () => boolean): Promise<number | undefined> {
  const file = `/proc/${parent}/task/${parent}/children`;
  for (let i = 0; i < 500 && !ended(); i++) {
    try {
      const first = readFileSync(file, "utf8").trim().split(/\s+/)[0];
      if (first) return Number(first);
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return undefined;
}

/** A host file or folder as the kubelet would project a Secret/ConfigMap volume: root-owned, group fsGroup, `mode`. */
export function projectVolume(dir: string, files: Record<string, string>, mode: number, fsGroup: number): string {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  chownSync(dir, 0, fsGroup);
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, content);
    chownSync(path, 0, fsGroup);
    chmodSync(path, mode);
  }
  return dir;
}
