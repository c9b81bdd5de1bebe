import type { PodMeta } from "../placement/exemption.js";
import type { WirePod } from "./extender-wire.js";
import { goField } from "./go-json-fields.js";
import { ExtenderArgsError, toPodMeta, type ParsedExtenderArgs } from "./parse-extender-args.js";

/** One candidate node as sent: its victims by UID, in order, and the PDB violations they cost. */
export interface PreemptionCandidateArgs {
  readonly node: string;
  readonly victimUids: readonly string[];
  readonly numPDBViolations: number;
}

export interface ParsedPreemptionArgs {
  readonly pod: PodMeta;
  readonly podWire: WirePod;
  /** `metaVictims`: NodeNameToMetaVictims (nodeCacheCapable); `victims`: NodeNameToVictims with whole pods. */
  readonly mode: "metaVictims" | "victims";
  /** Candidates in the order sent. */
  readonly candidates: readonly PreemptionCandidateArgs[];
  /**
   * The same request as filter/prioritize ExtenderArgs in NodeNames mode (the candidates' names),
   * so the per-request enrichment (cluster view, incoming pod) is the same code for every verb.
   */
  readonly asExtenderArgs: ParsedExtenderArgs;
}

/**
 * Validates a decoded ExtenderPreemptionArgs body. Keys are matched as Go's decoder matches
 * them (any case). Throws ExtenderArgsError naming the first problem: no `Pod`, neither victims
 * map, a victim without a UID (kube-scheduler could not map it back), wrong types.
 * When both maps are set (kube-scheduler sends one), NodeNameToMetaVictims is read, as the
 * filter reads NodeNames before Nodes.
 */
export function parsePreemptionArgs(body: unknown): ParsedPreemptionArgs {
  if (!isObject(body)) throw new ExtenderArgsError("request body must be a JSON object (ExtenderPreemptionArgs)");
  const pod = goField(body, "Pod");
  if (!isObject(pod)) throw new ExtenderArgsError("missing or invalid `Pod`: expected a v1.Pod object");
  const podMeta = toPodMeta(pod as WirePod);
  const meta = goField(body, "NodeNameToMetaVictims");
  const full = goField(body, "NodeNameToVictims");
  let mode: ParsedPreemptionArgs["mode"];
  let candidates: PreemptionCandidateArgs[];
  if (meta !== undefined && meta !== null) {
    mode = "metaVictims";
    candidates = readMap(meta, "NodeNameToMetaVictims", (p, where) => {
      if (!isObject(p)) throw new ExtenderArgsError(`${where} must be a MetaPod object {"UID": ...}`);
      return uidOf(goField(p, "UID"), `${where}.UID`);
    });
  } else if (full !== undefined && full !== null) {
    mode = "victims";
    candidates = readMap(full, "NodeNameToVictims", (p, where) => {
      if (!isObject(p)) throw new ExtenderArgsError(`${where} must be a v1.Pod object`);
      const metadata = goField(p, "metadata");
      if (!isObject(metadata)) throw new ExtenderArgsError(`${where}.metadata must be an object with a uid`);
      return uidOf(goField(metadata, "uid"), `${where}.metadata.uid`);
    });
  } else {
    throw new ExtenderArgsError("neither `NodeNameToVictims` nor `NodeNameToMetaVictims` is set: nothing to preempt");
  }
  const names = candidates.map((c) => c.node);
  return {
    pod: podMeta,
    podWire: pod as WirePod,
    mode,
    candidates,
    asExtenderArgs: {
      args: { Pod: pod as WirePod, Nodes: null, NodeNames: names },
      pod: podMeta,
      nodes: names.map((name) => ({ name })),
      mode: "nodeNames",
    },
  };
}

function readMap(map: unknown, field: string, victimUid: (pod: unknown, where: string) => string): PreemptionCandidateArgs[] {
  if (!isObject(map)) throw new ExtenderArgsError(`\`${field}\` must be an object from node name to victims, or null`);
  return Object.keys(map).map((node) => {
    const where = `${field}[${JSON.stringify(node)}]`;
    const victims = map[node];
    // Go decodes null into a nil *Victims: a node with no victims.
    if (victims === null) return { node, victimUids: [], numPDBViolations: 0 };
    if (!isObject(victims)) throw new ExtenderArgsError(`${where} must be an object {"Pods": [...], "NumPDBViolations": N} or null`);
    const pods = goField(victims, "Pods");
    if (pods !== undefined && pods !== null && !Array.isArray(pods)) throw new ExtenderArgsError(`${where}.Pods must be an array or null`);
    const pdb = goField(victims, "NumPDBViolations");
    if (pdb !== undefined && pdb !== null && !(typeof pdb === "number" && Number.isSafeInteger(pdb))) {
      throw new ExtenderArgsError(`${where}.NumPDBViolations must be an integer`);
    }
    return {
      node,
      victimUids: ((pods as unknown[] | null | undefined) ?? []).map((p, i) => victimUid(p, `${where}.Pods[${i}]`)),
      numPDBViolations: typeof pdb === "number" ? pdb : 0,
    };
  });
}

function uidOf(uid: unknown, where: string): string {
  if (typeof uid !== "string" || uid === "")
    throw new ExtenderArgsError(`${where} must be a non-empty string (kube-scheduler maps victims back by UID)`);
  return uid;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
