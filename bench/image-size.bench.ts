import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { BenchSkipped, type BenchFigure } from "./figure.js";

/**
 * Size of the container image built by scripts/build-image.sh (uncompressed layers, as
 * `buildah images` shows it, MB = 10^6 bytes), and how much of it is the base image.
 * Skipped where buildah is missing or the image has not been built.
 */
const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
const IMAGE = process.env.HVX_IMAGE ?? `localhost/hvx:${VERSION}`;
const BASE = "localhost/node:24-bookworm-slim";

function layerBytes(image: string): number | undefined {
  const r = spawnSync("buildah", ["inspect", "--type", "image", image], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.error !== undefined || r.status !== 0) return undefined;
  const manifest = JSON.parse((JSON.parse(r.stdout) as { Manifest: string }).Manifest) as { layers: Array<{ size: number }> };
  return manifest.layers.reduce((sum, l) => sum + l.size, 0);
}

export async function run(): Promise<BenchFigure[]> {
  if (spawnSync("buildah", ["--version"]).error !== undefined) throw new BenchSkipped("image not built (buildah is not installed)");
  const image = layerBytes(IMAGE);
  if (image === undefined) throw new BenchSkipped(`image not built (${IMAGE}; scripts/build-image.sh)`);
  const base = layerBytes(BASE);
  const figures: BenchFigure[] = [{ name: "image.sizeMB", value: image / 1e6, unit: `MB (${IMAGE})` }];
  if (base !== undefined) {
    figures.push({ name: "image.baseMB", value: base / 1e6, unit: "MB (stand-in base)" });
    figures.push({ name: "image.addedByHvxMB", value: (image - base) / 1e6, unit: "MB (dist/src + production node_modules)" });
  }
  return figures;
}
