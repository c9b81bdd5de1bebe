import type { Response } from "express";

/**
 * vim25 SOAP bodies from the mock's VI/JSON objects: the same data, the other encoding. A
 * `_typeName` becomes `xsi:type`, a ManagedObjectReference `<x type="HostSystem">host-11</x>`,
 * an anyType primitive (`{"_typeName":"int","_value":64}`) `<x xsi:type="xsd:int">64</x>`, an
 * array repeated elements. Faults are `<soapenv:Fault>` with the fault under `<detail>` as
 * `<{Type}Fault xsi:type="{Type}">`, HTTP 500, as vCenter (and govmomi's vcsim) send them.
 */
const ENVELOPE_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" ' +
  'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>';
const ENVELOPE_CLOSE = "</soapenv:Body></soapenv:Envelope>";
const XSD_TYPES: Readonly<Record<string, string>> = { int: "xsd:int", long: "xsd:long", string: "xsd:string", boolean: "xsd:boolean" };

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** One VI/JSON value as the element `name`. */
export function toXml(name: string, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.map((v) => toXml(name, v)).join("");
  if (typeof value !== "object") return `<${name}>${escape(String(value))}</${name}>`;
  const o = value as Record<string, unknown>;
  const typeName = typeof o["_typeName"] === "string" ? (o["_typeName"] as string) : undefined;
  if (typeName === "ManagedObjectReference") {
    return `<${name} xsi:type="ManagedObjectReference" type="${escape(String(o["type"]))}">${escape(String(o["value"]))}</${name}>`;
  }
  if ("_value" in o) {
    return `<${name} xsi:type="${XSD_TYPES[typeName ?? "string"] ?? typeName}">${escape(String(o["_value"]))}</${name}>`;
  }
  const attr = typeName !== undefined ? ` xsi:type="${escape(typeName)}"` : "";
  const inner = Object.entries(o)
    .filter(([k]) => k !== "_typeName")
    .map(([k, v]) => toXml(k, v))
    .join("");
  return `<${name}${attr}>${inner}</${name}>`;
}

/** `<{method}Response xmlns="urn:vim25">` with the `returnval` elements (none for a void method). */
export function soapResponse(method: string, returnval: unknown): string {
  return `${ENVELOPE_OPEN}<${method}Response xmlns="urn:vim25">${toXml("returnval", returnval)}</${method}Response>${ENVELOPE_CLOSE}`;
}

/** A VI/JSON fault body (`{"_typeName":"InvalidLogin","faultMessage":[...],...}`) as a SOAP fault. */
export function soapFault(fault: object): string {
  const f = fault as Record<string, unknown>;
  const type = String(f["_typeName"] ?? "SystemError");
  const message = (f["faultMessage"] as Array<{ message?: string }> | undefined)?.[0]?.message ?? "";
  const fields = Object.entries(f)
    .filter(([k]) => k !== "_typeName" && k !== "faultMessage")
    .map(([k, v]) => toXml(k, v))
    .join("");
  return (
    `${ENVELOPE_OPEN}<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>${escape(message)}</faultstring>` +
    `<detail><${type}Fault xmlns="urn:vim25" xsi:type="${type}">${fields}</${type}Fault></detail></soapenv:Fault>${ENVELOPE_CLOSE}`
  );
}

/** Sends a SOAP body; a successful one is cut in half when the fault dice marked it malformed. */
export function sendSoap(res: Response, status: number, xml: string): void {
  const text = res.locals["malformed"] === true && status < 300 ? xml.slice(0, Math.ceil(xml.length / 2)) : xml;
  res.status(status).type("text/xml; charset=utf-8").send(text);
}
