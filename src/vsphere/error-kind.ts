import type { VcenterErrorKind } from "./vcenter-api.js";

const KINDS: ReadonlySet<string> = new Set(["network", "http", "auth", "response", "config"]);

/** The metric label for a poll failure: one of the vsphere error kinds, else `other`. */
export function errorKind(err: unknown): VcenterErrorKind | "other" {
  const kind = (err as { kind?: unknown } | null)?.kind;
  return typeof kind === "string" && KINDS.has(kind) ? (kind as VcenterErrorKind) : "other";
}
