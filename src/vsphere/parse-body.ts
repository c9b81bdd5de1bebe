import type { z } from "zod";
import type { VcenterApi } from "./vcenter-api.js";
import { VcenterResponseError } from "./vcenter-response-error.js";

/** JSON.parse that answers garbage with a VcenterResponseError (no body text in the message). */
export function parseJsonText(api: VcenterApi, request: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new VcenterResponseError(api, request, `not JSON (${text.length} bytes)`);
  }
}

/** Parses and validates a 2xx body; the error names the first bad field path, never a value. */
export function parseBody<S extends z.ZodTypeAny>(api: VcenterApi, request: string, text: string, schema: S): z.infer<S> {
  const result = schema.safeParse(parseJsonText(api, request, text));
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join(".") : "(body)";
    throw new VcenterResponseError(api, request, `${where}: ${issue?.message ?? "invalid"}`);
  }
  return result.data as z.infer<S>;
}

/** Best-effort read of an error body; undefined when it is not JSON. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
