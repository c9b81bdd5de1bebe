/**
 * The parts of a core/v1 Pod the oversell policy reads, in wire shape (camelCase keys,
 * quantities as strings). A real Pod object satisfies it structurally; unknown fields are
 * simply not looked at.
 */
export type ResourceList = Readonly<Record<string, string>>;

export interface ContainerShape {
  readonly name: string;
  /** `Always` on an init container makes it a restartable "sidecar". */
  readonly restartPolicy?: string;
  readonly resources?: {
    readonly requests?: ResourceList;
    readonly limits?: ResourceList;
  };
}

export interface PodShape {
  readonly metadata?: {
    readonly name?: string;
    readonly generateName?: string;
    readonly namespace?: string;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  readonly spec?: {
    readonly containers?: readonly ContainerShape[];
    readonly initContainers?: readonly ContainerShape[];
  };
}

/** The two container lists hvx scales, in patch-path order. */
export const CONTAINER_LISTS = ["containers", "initContainers"] as const;
export type ContainerList = (typeof CONTAINER_LISTS)[number];

/** Resources hvx scales. */
export const SCALED_RESOURCES = ["cpu", "memory"] as const;
export type ScaledResource = (typeof SCALED_RESOURCES)[number];

/** Annotation keys hvx reads and writes. */
export const ORIGINAL_REQUESTS_ANNOTATION = "hvx.io/original-requests";
/** Written with the applied ratios; the value `"false"` set by a user opts the pod out. */
export const OVERSELL_ANNOTATION = "hvx.io/oversell";
export const NAMESPACE_CPU_LABEL = "hvx.io/oversell-cpu";
export const NAMESPACE_MEMORY_LABEL = "hvx.io/oversell-memory";

/**
 * Checks the structure the policy relies on (containers are objects with a string name,
 * requests/limits map names to strings). Returns a message for the first problem, or
 * undefined when the object can be read as a PodShape.
 */
export function podShapeProblem(object: unknown): string | undefined {
  if (!isRecord(object)) return "object is not a JSON object";
  if (object.metadata !== undefined && !isRecord(object.metadata)) return "metadata is not an object";
  const annotations = isRecord(object.metadata) ? object.metadata.annotations : undefined;
  if (annotations !== undefined && annotations !== null && !isStringMap(annotations)) return "metadata.annotations is not a map of strings";
  if (!isRecord(object.spec)) return "spec is missing or not an object";
  for (const list of CONTAINER_LISTS) {
    const containers = object.spec[list];
    if (containers === undefined || containers === null) continue;
    if (!Array.isArray(containers)) return `spec.${list} is not an array`;
    for (const [i, c] of containers.entries()) {
      if (!isRecord(c) || typeof c.name !== "string") return `spec.${list}[${i}] has no name`;
      if (c.resources === undefined || c.resources === null) continue;
      if (!isRecord(c.resources)) return `spec.${list}[${i}].resources is not an object`;
      for (const key of ["requests", "limits"] as const) {
        const m = c.resources[key];
        if (m !== undefined && m !== null && !isStringMap(m)) return `spec.${list}[${i}].resources.${key} is not a map of strings`;
      }
    }
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isStringMap(v: unknown): boolean {
  return isRecord(v) && Object.values(v).every((x) => typeof x === "string");
}
