/**
 * AdmissionReview `admission.k8s.io/v1` wire types (k8s.io/api/admission/v1/types.go).
 * The API server matches reply keys case-sensitively, so these names are exact.
 */
export const ADMISSION_API_VERSION = "admission.k8s.io/v1";
export const ADMISSION_KIND = "AdmissionReview";

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface UserInfoWire {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
const OPERATIONS: readonly string[] = ["CREATE", "UPDATE", "DELETE", "CONNECT"];

export interface AdmissionRequestWire {
  readonly uid: string;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subResource?: string;
  readonly requestKind?: GroupVersionKind;
  readonly requestResource?: GroupVersionResource;
  readonly requestSubResource?: string;
  /** Empty or absent on CREATE with `generateName`. */
  readonly name?: string;
  readonly namespace?: string;
  readonly operation: AdmissionOperation;
  readonly userInfo?: UserInfoWire;
  readonly object?: unknown;
  readonly oldObject?: unknown;
  readonly dryRun?: boolean;
  readonly options?: unknown;
}

export interface StatusWire {
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
}

export interface AdmissionResponseWire {
  readonly uid: string;
  readonly allowed: boolean;
  readonly status?: StatusWire;
  /** Base64 of a JSON array of RFC 6902 operations; always together with patchType. */
  readonly patch?: string;
  readonly patchType?: "JSONPatch";
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  readonly warnings?: readonly string[];
}

export interface AdmissionReviewWire {
  readonly apiVersion: string;
  readonly kind: string;
  readonly request?: AdmissionRequestWire;
  readonly response?: AdmissionResponseWire;
}

/** A review that carries a request, as the API server sends it. */
export interface AdmissionReviewRequest extends AdmissionReviewWire {
  readonly request: AdmissionRequestWire;
}

export type ParsedAdmissionReview =
  { readonly ok: true; readonly review: AdmissionReviewRequest } | { readonly ok: false; readonly message: string };

/** Parses a request body (text). Never throws; `message` says what is wrong. */
export function parseAdmissionReviewText(text: string): ParsedAdmissionReview {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return fail(`body is not valid JSON: ${(err as Error).message}`);
  }
  return parseAdmissionReview(body);
}

/** Validates a decoded body as an `admission.k8s.io/v1` AdmissionReview request. Never throws. */
export function parseAdmissionReview(body: unknown): ParsedAdmissionReview {
  if (!isRecord(body)) return fail("body is not a JSON object");
  if (body.apiVersion !== ADMISSION_API_VERSION)
    return fail(`apiVersion must be ${JSON.stringify(ADMISSION_API_VERSION)}, got ${show(body.apiVersion)}`);
  if (body.kind !== ADMISSION_KIND) return fail(`kind must be ${JSON.stringify(ADMISSION_KIND)}, got ${show(body.kind)}`);
  const r = body.request;
  if (!isRecord(r)) return fail("request is missing or not an object");
  if (typeof r.uid !== "string" || r.uid === "") return fail("request.uid must be a non-empty string");
  if (!isGvk(r.kind, "kind")) return fail("request.kind must be {group, version, kind} strings");
  if (!isGvk(r.resource, "resource")) return fail("request.resource must be {group, version, resource} strings");
  if (typeof r.operation !== "string" || !OPERATIONS.includes(r.operation)) {
    return fail(`request.operation must be one of ${OPERATIONS.join(", ")}, got ${show(r.operation)}`);
  }
  for (const key of ["subResource", "requestSubResource", "name", "namespace"] as const) {
    if (r[key] !== undefined && r[key] !== null && typeof r[key] !== "string") return fail(`request.${key} must be a string`);
  }
  if (r.requestKind !== undefined && r.requestKind !== null && !isGvk(r.requestKind, "kind"))
    return fail("request.requestKind must be {group, version, kind} strings");
  if (r.requestResource !== undefined && r.requestResource !== null && !isGvk(r.requestResource, "resource")) {
    return fail("request.requestResource must be {group, version, resource} strings");
  }
  if (r.userInfo !== undefined && r.userInfo !== null && !isRecord(r.userInfo)) return fail("request.userInfo must be an object");
  if (r.dryRun !== undefined && r.dryRun !== null && typeof r.dryRun !== "boolean") return fail("request.dryRun must be a boolean");
  if (r.object !== undefined && r.object !== null && !isRecord(r.object)) return fail("request.object must be an object or null");
  return { ok: true, review: body as unknown as AdmissionReviewRequest };
}

/** The reply for a request: echoes apiVersion, kind and uid. `patch` is the JSON array, not yet encoded. */
export function toAdmissionResponseWire(
  review: { readonly apiVersion: string; readonly kind: string; readonly request: { readonly uid: string } },
  outcome: { readonly patch?: readonly unknown[]; readonly warnings?: readonly string[] },
): AdmissionReviewWire {
  const warnings = outcome.warnings && outcome.warnings.length > 0 ? { warnings: outcome.warnings } : {};
  const patch =
    outcome.patch && outcome.patch.length > 0
      ? { patchType: "JSONPatch" as const, patch: Buffer.from(JSON.stringify(outcome.patch)).toString("base64") }
      : {};
  return { apiVersion: review.apiVersion, kind: review.kind, response: { uid: review.request.uid, allowed: true, ...patch, ...warnings } };
}

function fail(message: string): ParsedAdmissionReview {
  return { ok: false, message: `malformed AdmissionReview: ${message}` };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isGvk(v: unknown, last: "kind" | "resource"): boolean {
  return isRecord(v) && typeof v.group === "string" && typeof v.version === "string" && typeof v[last] === "string";
}

function show(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
