import type { ObjectIndex } from "./resource-store.js";

/**
 * Label and field selectors as the API server parses them (the subset hvx and client-go use):
 * labels `k=v`, `k==v`, `k!=v`, `k`, `!k`, `k in (a,b)`, `k notin (a,b)`; fields `f=v`, `f==v`, `f!=v`
 * on the fields a resource supports (others are a 400, like the real server).
 */
type Requirement =
  | { key: string; op: "eq" | "ne"; value: string }
  | { key: string; op: "exists" | "absent" }
  | { key: string; op: "in" | "notin"; values: readonly string[] };

export class SelectorError extends Error {
  override name = "SelectorError";
}

export type Matcher = (index: ObjectIndex) => boolean;

export function parseSelectors(labelSelector: string | null, fieldSelector: string | null, supportedFields: ReadonlySet<string>): Matcher {
  const labels = labelSelector ? parseLabelSelector(labelSelector) : [];
  const fields = fieldSelector ? parseFieldSelector(fieldSelector, supportedFields) : [];
  if (labels.length === 0 && fields.length === 0) return () => true;
  return (index) => labels.every((r) => matches(r, index.labels)) && fields.every((r) => matches(r, index.fields, true));
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

function parseLabelSelector(text: string): Requirement[] {
  return splitTopLevel(text).map((part) => {
    let m = /^([^\s!=(),]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (m) return { key: m[1] as string, op: m[2] as "in" | "notin", values: (m[3] as string).split(",").map((v) => v.trim()) };
    m = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/.exec(part);
    if (m) return { key: m[1] as string, op: m[2] === "!=" ? "ne" : "eq", value: m[3] as string };
    m = /^(!?)([^\s!=(),]+)$/.exec(part);
    if (m) return { key: m[2] as string, op: m[1] === "!" ? "absent" : "exists" };
    throw new SelectorError(`unable to parse requirement: ${JSON.stringify(part)}`);
  });
}

function parseFieldSelector(text: string, supported: ReadonlySet<string>): Requirement[] {
  return splitTopLevel(text).map((part) => {
    const m = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) throw new SelectorError(`invalid selector: '${part}'; can't understand '${part}'`);
    const key = m[1] as string;
    if (!supported.has(key)) throw new SelectorError(`field label not supported: ${key}`);
    return { key, op: m[2] === "!=" ? "ne" : "eq", value: m[3] as string };
  });
}

function matches(r: Requirement, values: Readonly<Record<string, string>>, emptyWhenMissing = false): boolean {
  const has = Object.prototype.hasOwnProperty.call(values, r.key);
  const value = has ? values[r.key] : emptyWhenMissing ? "" : undefined;
  switch (r.op) {
    case "eq":
      return value === r.value;
    case "ne":
      return value !== r.value;
    case "exists":
      return has;
    case "absent":
      return !has;
    case "in":
      return value !== undefined && r.values.includes(value);
    case "notin":
      return value === undefined || !r.values.includes(value);
  }
}
