import { oversellAnnotationValue } from "./describe-ratios.js";
import type { EffectiveRatios } from "./effective-ratios.js";
import type { RequestChange } from "./decide-oversell.js";
import { jsonPointer } from "./json-pointer.js";
import type { OriginalRequests } from "./original-requests.js";
import { ORIGINAL_REQUESTS_ANNOTATION, OVERSELL_ANNOTATION, type PodShape } from "./pod-shape.js";

/** RFC 6902 operations hvx emits. */
export type JsonPatchOp =
  | { readonly op: "replace"; readonly path: string; readonly value: string }
  | { readonly op: "add"; readonly path: string; readonly value: unknown };

/**
 * The JSON Patch for a scale decision, made for exactly `pod`: one `replace` per lowered
 * request (the path exists: the request was read from it), then the two annotations.
 * `add` on a member needs its parent, so `/metadata/annotations` (or `/metadata`) is
 * created whole when absent; otherwise each key is added (add replaces an existing member).
 * Keys are escaped (`hvx.io/oversell` -> `hvx.io~1oversell`).
 */
export function buildOversellPatch(
  pod: PodShape,
  decision: { readonly changes: readonly RequestChange[]; readonly originals: OriginalRequests; readonly ratios: EffectiveRatios },
): JsonPatchOp[] {
  const ops: JsonPatchOp[] = decision.changes.map((c) => ({
    op: "replace",
    path: jsonPointer(["spec", c.list, c.index, "resources", "requests", c.resource]),
    value: c.to,
  }));
  const added: Record<string, string> = {
    [ORIGINAL_REQUESTS_ANNOTATION]: JSON.stringify(decision.originals),
    [OVERSELL_ANNOTATION]: oversellAnnotationValue(decision.ratios),
  };
  const metadata = pod.metadata;
  if (metadata === undefined || metadata === null) {
    ops.push({ op: "add", path: "/metadata", value: { annotations: added } });
  } else if (metadata.annotations === undefined || metadata.annotations === null) {
    ops.push({ op: "add", path: "/metadata/annotations", value: added });
  } else {
    for (const [key, value] of Object.entries(added)) {
      ops.push({ op: "add", path: jsonPointer(["metadata", "annotations", key]), value });
    }
  }
  return ops;
}
