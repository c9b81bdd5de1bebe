/**
 * The patch types the API server accepts for built-in resources:
 * - `application/merge-patch+json` (RFC 7386),
 * - `application/json-patch+json` (RFC 6902),
 * - `application/strategic-merge-patch+json`, applied here as a merge patch (exact for the
 *   maps hvx patches, labels and annotations; list merge keys are not modelled).
 */
export class PatchError extends Error {
  override name = "PatchError";
}

export const PATCH_CONTENT_TYPES = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
] as const;
export type PatchContentType = (typeof PATCH_CONTENT_TYPES)[number];

export function applyPatch(target: unknown, patch: unknown, contentType: PatchContentType): unknown {
  if (contentType === "application/json-patch+json") return applyJsonPatch(target, patch);
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) throw new PatchError("a merge patch must be a JSON object");
  return mergePatch(target, patch);
}

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === "object" && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

type Op = { op: string; path: string; value?: unknown; from?: string };

export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new PatchError("a JSON patch must be an array of operations");
  let doc: unknown = structuredClone(target);
  for (const raw of patch as Op[]) {
    if (typeof raw !== "object" || raw === null || typeof raw.op !== "string" || typeof raw.path !== "string") {
      throw new PatchError("each operation needs string fields op and path");
    }
    switch (raw.op) {
      case "add":
        doc = add(doc, raw.path, requireValue(raw));
        break;
      case "remove":
        doc = remove(doc, raw.path);
        break;
      case "replace":
        doc = add(remove(doc, raw.path), raw.path, requireValue(raw));
        break;
      case "move": {
        const value = get(doc, from(raw));
        doc = add(remove(doc, from(raw)), raw.path, value);
        break;
      }
      case "copy":
        doc = add(doc, raw.path, structuredClone(get(doc, from(raw))));
        break;
      case "test":
        if (JSON.stringify(get(doc, raw.path)) !== JSON.stringify(requireValue(raw))) {
          throw new PatchError(`testing value ${raw.path} failed`);
        }
        break;
      default:
        throw new PatchError(`unexpected operation ${JSON.stringify(raw.op)}`);
    }
  }
  return doc;
}

function requireValue(op: Op): unknown {
  if (!("value" in op)) throw new PatchError(`operation ${op.op} ${op.path} has no value`);
  return op.value;
}

function from(op: Op): string {
  if (typeof op.from !== "string") throw new PatchError(`operation ${op.op} needs from`);
  return op.from;
}

function tokens(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new PatchError(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function parentOf(doc: unknown, pointer: string): { parent: unknown; last: string } {
  const parts = tokens(pointer);
  const last = parts.pop();
  if (last === undefined) throw new PatchError("the whole document cannot be the target here");
  let node = doc;
  for (const t of parts) node = child(node, t, pointer);
  return { parent: node, last };
}

function child(node: unknown, token: string, pointer: string): unknown {
  if (Array.isArray(node)) {
    const i = Number(token);
    if (!/^\d+$/.test(token) || i >= node.length) throw new PatchError(`path ${pointer} does not exist`);
    return node[i];
  }
  if (typeof node === "object" && node !== null && Object.prototype.hasOwnProperty.call(node, token)) {
    return (node as Record<string, unknown>)[token];
  }
  throw new PatchError(`path ${pointer} does not exist`);
}

function get(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const t of tokens(pointer)) node = child(node, t, pointer);
  return node;
}

function add(doc: unknown, pointer: string, value: unknown): unknown {
  if (pointer === "") return value;
  const { parent, last } = parentOf(doc, pointer);
  if (Array.isArray(parent)) {
    const i = last === "-" ? parent.length : Number(last);
    if (!/^(\d+|-)$/.test(last) || i > parent.length) throw new PatchError(`path ${pointer} is out of range`);
    parent.splice(i, 0, value);
  } else if (typeof parent === "object" && parent !== null) {
    (parent as Record<string, unknown>)[last] = value;
  } else {
    throw new PatchError(`parent of ${pointer} is not a container`);
  }
  return doc;
}

function remove(doc: unknown, pointer: string): unknown {
  const { parent, last } = parentOf(doc, pointer);
  child(parent, last, pointer);
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as Record<string, unknown>)[last];
  return doc;
}
