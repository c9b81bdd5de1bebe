import type { ResourceAmounts } from "../model/cluster.js";
import { cpuMilli, memoryBytes } from "../quantity/index.js";

/**
 * A pod's resource figures as hvx uses them (CPU in millicores, memory in bytes):
 * - `requests`: kube-scheduler's effective request: max(sum of app containers + sidecars,
 *   max over init containers of (its request + the sidecars declared before it)) + overhead.
 *   A container with a limit but no request requests its limit (API server defaulting).
 * - `limits`: the same aggregation over limits, where a container without a limit counts
 *   with its request and one with neither adds nothing (DESIGN "Limit sums").
 * - `expectedDemand`: what the burst guard projects, per resource: the original requests from
 *   `hvx.io/original-requests` when present and valid, else requests, else limits, else defaults.
 * Bad quantities never throw: they count as absent and are listed in `problems`.
 */
export const ORIGINAL_REQUESTS_ANNOTATION = "hvx.io/original-requests";

type QuantityMap = Readonly<Record<string, string | number | undefined>> | undefined;

export interface ContainerResourceSpec {
  readonly name?: string;
  /** `Always` on an init container makes it a sidecar (restartable init container). */
  readonly restartPolicy?: string;
  readonly resources?: { readonly requests?: QuantityMap; readonly limits?: QuantityMap } | null;
}

export interface PodResourceSpec {
  readonly containers?: readonly ContainerResourceSpec[] | null;
  readonly initContainers?: readonly ContainerResourceSpec[] | null;
  readonly overhead?: QuantityMap | null;
}

export interface PodDemand {
  readonly requests: ResourceAmounts;
  readonly limits: ResourceAmounts;
  readonly expectedDemand: ResourceAmounts;
  /**
   * The requests as written before the oversell webhook scaled them (from a valid
   * `hvx.io/original-requests`; a resource without an original keeps its request);
   * undefined when the pod carries no valid annotation (it was not scaled).
   */
  readonly originalRequests?: ResourceAmounts;
  /** Unparseable quantities and an invalid annotation, one line each, for the caller to log. */
  readonly problems: readonly string[];
}

type Resource = "cpu" | "memory";
const RESOURCES: readonly Resource[] = ["cpu", "memory"];
const PARSERS: Record<Resource, (text: string) => number> = { cpu: cpuMilli, memory: memoryBytes };
type Originals = {
  containers: Map<string, Partial<Record<Resource, number>>>;
  initContainers: Map<string, Partial<Record<Resource, number>>>;
};

export function podDemand(
  spec: PodResourceSpec | undefined,
  annotations: Readonly<Record<string, string>> | undefined,
  defaults: ResourceAmounts,
): PodDemand {
  const problems: string[] = [];
  const containers = spec?.containers ?? [];
  const inits = spec?.initContainers ?? [];
  const originals = parseOriginals(annotations?.[ORIGINAL_REQUESTS_ANNOTATION], problems);
  const out = {
    requests: {} as Record<Resource, number>,
    limits: {} as Record<Resource, number>,
    expected: {} as Record<Resource, number>,
    original: {} as Record<Resource, number>,
  };
  for (const r of RESOURCES) {
    const q = (map: QuantityMap, where: string): number | undefined => quantity(map?.[r], r, where, problems);
    const overhead = q(spec?.overhead ?? undefined, "overhead") ?? 0;
    const request = (c: ContainerResourceSpec, where: string): number =>
      q(c.resources?.requests, `${where}.requests`) ?? q(c.resources?.limits, `${where}.limits`) ?? 0;
    const label = (kind: string, c: ContainerResourceSpec, i: number): string => `${kind}[${c.name ?? i}].resources`;
    const requests =
      aggregate(
        containers.map((c, i) => request(c, label("containers", c, i))),
        inits,
        (c, i) => request(c, label("initContainers", c, i)),
      ) + overhead;
    // Limits are parsed a second time on purpose: quiet, so each bad quantity is reported once.
    const quiet: string[] = [];
    const qq = (map: QuantityMap): number | undefined => quantity(map?.[r], r, "", quiet);
    const quietLimit = (c: ContainerResourceSpec): number => qq(c.resources?.limits) ?? qq(c.resources?.requests) ?? 0;
    const limits = aggregate(containers.map(quietLimit), inits, quietLimit) + overhead;
    out.requests[r] = requests;
    out.limits[r] = limits;
    let expected: number | undefined;
    if (originals && hasOriginal(originals, r)) {
      const orig = (map: Originals["containers"], c: ContainerResourceSpec): number =>
        map.get(c.name ?? "")?.[r] ?? qq(c.resources?.requests) ?? qq(c.resources?.limits) ?? 0;
      expected =
        aggregate(
          containers.map((c) => orig(originals.containers, c)),
          inits,
          (c) => orig(originals.initContainers, c),
        ) + overhead;
    }
    out.original[r] = expected ?? requests;
    out.expected[r] = expected ?? (requests > 0 ? requests : limits > 0 ? limits : r === "cpu" ? defaults.cpuMilli : defaults.memoryBytes);
  }
  return {
    requests: { cpuMilli: out.requests.cpu, memoryBytes: out.requests.memory },
    limits: { cpuMilli: out.limits.cpu, memoryBytes: out.limits.memory },
    expectedDemand: { cpuMilli: out.expected.cpu, memoryBytes: out.expected.memory },
    ...(originals ? { originalRequests: { cpuMilli: out.original.cpu, memoryBytes: out.original.memory } } : {}),
    problems,
  };
}

/** max(sum(app) + sum(sidecars), max over init i of (sidecar: sidecars up to i; regular: own + sidecars before i)). */
function aggregate(
  appValues: readonly number[],
  inits: readonly ContainerResourceSpec[],
  value: (c: ContainerResourceSpec, i: number) => number,
): number {
  let sum = appValues.reduce((a, b) => a + b, 0);
  let sidecars = 0;
  let initMax = 0;
  inits.forEach((c, i) => {
    const v = value(c, i);
    if (c.restartPolicy === "Always") {
      sum += v;
      sidecars += v;
      initMax = Math.max(initMax, sidecars);
    } else {
      initMax = Math.max(initMax, v + sidecars);
    }
  });
  return Math.max(sum, initMax);
}

function quantity(raw: string | number | undefined, r: Resource, where: string, problems: string[]): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  try {
    const value = PARSERS[r](String(raw));
    if (value < 0) throw new Error("negative");
    return value;
  } catch {
    problems.push(`${where}.${r}: invalid quantity ${JSON.stringify(raw)}, counted as absent`);
    return undefined;
  }
}

function hasOriginal(o: Originals, r: Resource): boolean {
  for (const m of [o.containers, o.initContainers]) for (const v of m.values()) if (v[r] !== undefined) return true;
  return false;
}

/** `{"containers":{"app":{"cpu":"2","memory":"4Gi"}},"initContainers":{...}}`; undefined when absent or invalid. */
function parseOriginals(text: string | undefined, problems: string[]): Originals | undefined {
  if (text === undefined) return undefined;
  const bad = (why: string): undefined => {
    problems.push(`annotation ${ORIGINAL_REQUESTS_ANNOTATION}: ${why}, ignored`);
    return undefined;
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return bad("not valid JSON");
  }
  if (!isRecord(doc)) return bad("not a JSON object");
  const out: Originals = { containers: new Map(), initContainers: new Map() };
  for (const kind of ["containers", "initContainers"] as const) {
    const section = doc[kind];
    if (section === undefined) continue;
    if (!isRecord(section)) return bad(`${kind} is not an object`);
    for (const [name, values] of Object.entries(section)) {
      if (!isRecord(values)) return bad(`${kind}.${name} is not an object`);
      const parsed: Partial<Record<Resource, number>> = {};
      for (const r of RESOURCES) {
        const raw = values[r];
        if (raw === undefined) continue;
        if (typeof raw !== "string" && typeof raw !== "number") return bad(`${kind}.${name}.${r} is not a quantity`);
        const v = quantity(raw, r, `annotation ${ORIGINAL_REQUESTS_ANNOTATION} ${kind}.${name}`, problems);
        if (v === undefined) return undefined;
        parsed[r] = v;
      }
      out[kind].set(name, parsed);
    }
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
