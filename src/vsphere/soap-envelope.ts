import { XMLParser } from "fast-xml-parser";

/**
 * vim25 SOAP envelopes: building a request from ordered fields (vCenter's deserializer wants the
 * WSDL's element order) and reading a response into plain elements. No WSDL: the callers name
 * the elements they send and read.
 */

/** A managed-object reference: `<obj type="HostSystem">host-21</obj>`. */
export interface SoapMoRef {
  readonly type: string;
  readonly value: string;
}

/** A data object; `xsiType` is written as `xsi:type` (needed where the WSDL type is abstract). */
export interface SoapObject {
  readonly xsiType?: string;
  readonly fields: readonly SoapField[];
}

/** A primitive in an `anyType` field: `<value xsi:type="xsd:int">64</value>`. */
export interface SoapTypedScalar {
  readonly xsiType: string;
  readonly text: string;
}

export type SoapScalar = string | number | boolean;
export type SoapValue = SoapScalar | { readonly moRef: SoapMoRef } | SoapObject | SoapTypedScalar;
/** One element; an array value repeats the element, undefined leaves it out. */
export type SoapField = readonly [name: string, value: SoapValue | readonly SoapValue[] | undefined];

/** One element of a response: local name (prefix dropped), attributes as written, trimmed text, children in order. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly text: string;
  readonly children: readonly XmlElement[];
}

/** A vim25 fault: `type` is the MethodFault's type name (`InvalidLogin`, `NotAuthenticated`, ...) when the body names one. */
export interface SoapFault {
  readonly type?: string;
  /**
   * The fault's `details` (RestrictedByAdministrator), `invalidProperty` (InvalidArgument) or
   * `name` (InvalidName): a setting or property name.
   */
  readonly detail?: string;
  readonly message: string;
}

export type SoapReply =
  { readonly ok: true; readonly returnval: readonly XmlElement[] } | { readonly ok: false; readonly fault: SoapFault };

export class SoapParseError extends Error {
  override name = "SoapParseError";
}

const ENVELOPE_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>';
const ENVELOPE_CLOSE = "</soapenv:Body></soapenv:Envelope>";

/** `<method xmlns="urn:vim25"><_this type=...>...</_this>{fields}</method>` in an envelope. */
export function buildSoapRequest(method: string, self: SoapMoRef, fields: readonly SoapField[]): string {
  const body = element("_this", { moRef: self }) + fields.map(fieldXml).join("");
  return `${ENVELOPE_OPEN}<${method} xmlns="urn:vim25">${body}</${method}>${ENVELOPE_CLOSE}`;
}

function fieldXml([name, value]: SoapField): string {
  if (value === undefined) return "";
  if (Array.isArray(value)) return (value as readonly SoapValue[]).map((v) => element(name, v)).join("");
  return element(name, value as SoapValue);
}

function element(name: string, value: SoapValue): string {
  if (typeof value !== "object") return `<${name}>${escapeXml(String(value))}</${name}>`;
  if ("moRef" in value) return `<${name} type="${escapeXml(value.moRef.type)}">${escapeXml(value.moRef.value)}</${name}>`;
  const type = value.xsiType !== undefined ? ` xsi:type="${escapeXml(value.xsiType)}"` : "";
  const content = "text" in value ? escapeXml(value.text) : value.fields.map(fieldXml).join("");
  return `<${name}${type}>${content}</${name}>`;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
});

/** The document's root element; throws SoapParseError when the text is not XML. */
export function parseXml(text: string): XmlElement {
  let raw: unknown;
  try {
    raw = parser.parse(text);
  } catch {
    throw new SoapParseError(`not XML (${text.length} bytes)`);
  }
  const root = toElements(raw).find((e) => !e.name.startsWith("?"));
  if (!root) throw new SoapParseError(`no XML element (${text.length} bytes)`);
  return root;
}

/** fast-xml-parser's ordered form (`[{tag: [...], ":@": {attrs}}, {"#text": ...}]`) into XmlElements. */
function toElements(nodes: unknown): XmlElement[] {
  if (!Array.isArray(nodes)) return [];
  const out: XmlElement[] = [];
  for (const node of nodes as Array<Record<string, unknown>>) {
    const tag = Object.keys(node).find((k) => k !== ":@" && k !== "#text");
    if (tag === undefined) continue;
    const content = Array.isArray(node[tag]) ? (node[tag] as Array<Record<string, unknown>>) : [];
    const attrs = (node[":@"] ?? {}) as Record<string, string>;
    const text = content
      .map((c) => c["#text"])
      .filter((t) => t !== undefined)
      .join("");
    out.push({ name: localName(tag), attrs, text: String(text), children: toElements(content) });
  }
  return out;
}

function localName(name: string): string {
  const i = name.indexOf(":");
  return i < 0 ? name : name.slice(i + 1);
}

/**
 * A vim25 response: the `returnval` elements of `<{Method}Response>` (none for a method
 * returning nothing), or the fault. Throws SoapParseError when it is neither.
 */
export function parseSoapReply(text: string): SoapReply {
  const envelope = parseXml(text);
  const body = envelope.name === "Envelope" ? child(envelope, "Body") : undefined;
  const first = body?.children[0];
  if (!body || !first) throw new SoapParseError("no SOAP Body");
  if (first.name === "Fault") return { ok: false, fault: readFault(first) };
  if (!first.name.endsWith("Response")) throw new SoapParseError(`unexpected element ${first.name.slice(0, 60)}`);
  return { ok: true, returnval: children(first, "returnval") };
}

/** `<soapenv:Fault><faultstring/><detail><XFault xsi:type="X">...` (vim25 fault types end in `Fault` as elements). */
function readFault(fault: XmlElement): SoapFault {
  const message = child(fault, "faultstring")?.text ?? "";
  const detail = child(fault, "detail")?.children[0];
  const named = detail ? (xsiType(detail) ?? detail.name.replace(/Fault$/, "")) : undefined;
  const type = named !== undefined && /^[A-Za-z0-9_.]{1,100}$/.test(named) ? named : undefined;
  const raw = detail ? (textOf(detail, "details") ?? textOf(detail, "invalidProperty") ?? textOf(detail, "name")) : undefined;
  const name = raw !== undefined && /^[A-Za-z0-9_.]{1,100}$/.test(raw) ? raw : undefined;
  return { ...(type !== undefined ? { type } : {}), ...(name !== undefined ? { detail: name } : {}), message };
}

/** The `xsi:type` attribute (whatever its prefix is bound to), prefix of the value dropped: `xsd:int` -> `int`. */
export function xsiType(el: XmlElement): string | undefined {
  for (const [key, value] of Object.entries(el.attrs)) {
    if (key.endsWith(":type")) return localName(value);
  }
  return undefined;
}

export function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => c.name === name);
}

export function children(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

export function textOf(el: XmlElement, name: string): string | undefined {
  return child(el, name)?.text;
}

/** An element's text as a finite number, else undefined. */
export function asNumber(el: XmlElement | undefined): number | undefined {
  const n = el === undefined || el.text === "" ? Number.NaN : Number(el.text);
  return Number.isFinite(n) ? n : undefined;
}

/** An element's text as a safe integer, else undefined. */
export function asInteger(el: XmlElement | undefined): number | undefined {
  const n = el !== undefined && /^-?\d+$/.test(el.text) ? Number(el.text) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A managed-object reference element: `type` attribute and text. */
export function moRefOf(el: XmlElement | undefined): SoapMoRef | undefined {
  const type = el?.attrs["type"];
  return el && type !== undefined && el.text !== "" ? { type, value: el.text } : undefined;
}
