import { JsonScanner } from "./json-scanner.js";
import { ExtenderArgsError } from "./parse-extender-args.js";
import type { ReceivedBody } from "./received-body.js";

/** The members of ExtenderArgs that `parseExtenderArgs` reads. */
export interface ExtenderArgsMembers {
  Pod?: unknown;
  Nodes?: unknown;
  NodeNames?: unknown;
}

/** Bodies and values remembered per member: a pod's filter and prioritize, the last candidate lists. */
const REMEMBERED = 2;
/**
 * Only bodies up to this size are remembered, or have their members' texts remembered: a
 * remembered text is a slice of its body and keeps the whole body alive. A 5000-name body is
 * about 100 KB.
 */
const REMEMBER_FROM_BODIES_UP_TO = 1024 * 1024;

type RememberedMember = "Pod" | "NodeNames";

interface Remembered {
  readonly text: string;
  readonly value: unknown;
}

/**
 * Decodes ExtenderArgs request bodies, and reuses what it decoded of a recent body when the
 * same bytes arrive again, or the same text of its `Pod` or `NodeNames`: kube-scheduler sends
 * a pod's filter and prioritize with the same Pod, and the very same body when the filter
 * passed every candidate; and often the same candidates request after request. Decoding those
 * two members is nearly all of decoding a request (`JSON.parse` of a 500-name body with a 3 KB
 * pod: about 28 µs; comparing a remembered text: a memcmp).
 *
 * The answer is what `JSON.parse` makes of the body, as far as `parseExtenderArgs` reads it.
 * Reused values are shared by every request that sends their text, so they are frozen. A body
 * this path is not certain of (full `Nodes` mode, a body that is not valid JSON, a shape it
 * does not expect) is decoded whole with `JSON.parse`, which also says what is wrong with it.
 */
export class ExtenderArgsDecoder {
  private bodies: Array<{ readonly bytes: Buffer; readonly members: ExtenderArgsMembers }> = [];
  private readonly remembered: Record<RememberedMember, Remembered[]> = { Pod: [], NodeNames: [] };

  decode(body: ReceivedBody): ExtenderArgsMembers {
    const bytes = body.bytes;
    if (bytes) for (const known of this.bodies) if (known.bytes.equals(bytes)) return known.members;
    const text = body.text();
    const members = this.decodeByMember(text);
    if (members === undefined) return decodeJson(text) as ExtenderArgsMembers;
    if (bytes && bytes.length <= REMEMBER_FROM_BODIES_UP_TO) {
      this.bodies = [{ bytes, members: Object.freeze(members) }, ...this.bodies.slice(0, REMEMBERED - 1)];
    }
    return members;
  }

  /**
   * Walks the top level with a scanner that checks its punctuation and keys; every value is
   * either a remembered text or decoded from its own text by `JSON.parse`, which checks it.
   */
  private decodeByMember(body: string): ExtenderArgsMembers | undefined {
    const close = closingBrace(body);
    if (close < 0) return undefined;
    const scan = new JsonScanner(body, { strictKeys: true });
    const spans: Array<{ key: string; start: number; end: number; value?: unknown }> = [];
    const walked = scan.eachMember((key) => {
      const start = scan.at;
      if (key === "Nodes") {
        // A NodeList is full `Nodes` mode, decoded whole.
        if (!scan.skipLiteral("null")) return false;
        spans.push({ key, start, end: scan.at, value: null });
        return true;
      }
      const known = key === "Pod" || key === "NodeNames" ? this.textAt(key, body, start) : undefined;
      if (known) {
        scan.skip(known.text.length);
        spans.push({ key, start, end: scan.at, value: known.value });
        return true;
      }
      // NodeNames comes last in kube-scheduler's bodies: when the rest of the body up to its
      // closing brace is one value, that is it (no scan of 500 strings).
      const last = key === "NodeNames" ? decodeOrUndefined(body.slice(start, close)) : undefined;
      if (last !== undefined) {
        scan.skip(close - start);
        spans.push({ key, start, end: close, value: last.value });
        return true;
      }
      if (!scan.skipValue()) return false;
      spans.push({ key, start, end: scan.at });
      return true;
    });
    if (!walked || !scan.atEnd()) return undefined;
    const members: ExtenderArgsMembers = {};
    for (const span of spans) {
      const { key, start, end } = span;
      if (!("value" in span)) {
        const decoded = decodeOrUndefined(body.slice(start, end));
        if (decoded === undefined) return undefined;
        span.value = decoded.value;
      }
      if (key === "Pod" || key === "NodeNames") members[key] = this.remember(key, body, span);
      else if (key === "Nodes") members.Nodes = span.value;
    }
    return members;
  }

  private textAt(key: RememberedMember, body: string, at: number): Remembered | undefined {
    // A slice compared with === is a memcmp; startsWith compares character by character, 30 times slower.
    for (const r of this.remembered[key]) if (body.slice(at, at + r.text.length) === r.text) return r;
    return undefined;
  }

  /** The span's value, remembered with its text unless it came from a remembered text. */
  private remember(key: RememberedMember, body: string, span: { start: number; end: number; value?: unknown }): unknown {
    const list = this.remembered[key];
    if (list.some((r) => r.value === span.value) || body.length > REMEMBER_FROM_BODIES_UP_TO) return span.value;
    const value = deepFreeze(span.value);
    list.unshift({ text: body.slice(span.start, span.end), value });
    list.length = Math.min(list.length, REMEMBERED);
    return value;
  }
}

/** A request body as JSON; ExtenderArgsError (a 400 for the caller) when it is empty or not JSON. */
export function decodeJson(text: string): unknown {
  if (text.trim() === "") throw new ExtenderArgsError("empty request body: expected ExtenderArgs JSON");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ExtenderArgsError(`malformed JSON: ${(err as Error).message}`);
  }
}

function decodeOrUndefined(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Where the top-level object closes: the last character but whitespace, when it is `}`; else -1. */
function closingBrace(body: string): number {
  let i = body.length - 1;
  while (i >= 0 && isJsonSpace(body.charCodeAt(i))) i--;
  return i >= 0 && body.charCodeAt(i) === 0x7d ? i : -1;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
