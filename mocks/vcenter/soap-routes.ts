import type { Application, Request, Response } from "express";
import { child, children, parseXml, textOf, type XmlElement } from "../../src/vsphere/soap-envelope.js";
import { instanceUuidFor } from "./automation-inventory-routes.js";
import { toPerfCounterInfoWire } from "./counter-catalogue.js";
import type { MockState } from "./mock-state.js";
import { closeSession, openSession, touchSession, vcenterUserName } from "./session-store.js";
import { sendSoap, soapFault, soapResponse } from "./soap-wire.js";
import { namesFailingHost, toHostListSummaryWire } from "./vi-perf-routes.js";
import { queryPerf } from "./vi-perf-query.js";
import { PERF_MANAGER_ID, SESSION_MANAGER_ID, SETTING_ID, queryOptionsReply, serviceContent } from "./vi-session-routes.js";
import { invalidRequest, managedObjectNotFound, moRef, viFault } from "./wire-errors.js";

/**
 * vim25 over SOAP at `POST /sdk`: the methods hvx's SOAP path calls, answering from the same
 * scenario state, faults and counters as the VI/JSON routes (so a hot host, a lowered
 * maxQueryMetrics or a host's `perf` fault look the same through both). The session is the
 * `vmware_soap_session` cookie; without one, every method but RetrieveServiceContent, Login and
 * CurrentTime is a `NotAuthenticated` fault. Views and RetrievePropertiesEx pages are kept per mock.
 */
export const SOAP_SESSION_COOKIE = "vmware_soap_session";
const FAULT_STATUS = 500;
const NO_SESSION = new Set(["RetrieveServiceContent", "Login", "CurrentTime"]);

interface SoapState {
  readonly views: Map<string, readonly string[]>;
  readonly pages: Map<string, object[]>;
  next: number;
}
const soapStates = new WeakMap<MockState, SoapState>();

type Reply = { returnval?: unknown; fault?: object; cookie?: string };
type Call = { state: MockState; soap: SoapState; self: XmlElement | undefined; params: XmlElement; req: Request };

export function mountSoapRoutes(app: Application, state: MockState): void {
  const soap: SoapState = { views: new Map(), pages: new Map(), next: 1 };
  soapStates.set(state, soap);
  app.post("/sdk", (req: Request, res: Response) => {
    state.stats.requestsByRoute["POST /sdk"] = (state.stats.requestsByRoute["POST /sdk"] ?? 0) + 1;
    let method: XmlElement | undefined;
    try {
      const envelope = parseXml(typeof req.body === "string" ? req.body : "");
      method = envelope.name === "Envelope" ? child(envelope, "Body")?.children[0] : undefined;
    } catch {
      method = undefined;
    }
    if (!method) {
      sendSoap(res, FAULT_STATUS, soapFault(invalidRequest("The request body is not a SOAP envelope.")));
      return;
    }
    state.stats.requestsByRoute[`POST /sdk ${method.name}`] = (state.stats.requestsByRoute[`POST /sdk ${method.name}`] ?? 0) + 1;
    const cookie = readCookie(req.get("cookie"));
    if (!NO_SESSION.has(method.name) && touchSession(state, cookie, "soap") === undefined) {
      state.stats.unauthorizedServed += 1;
      const fault = viFault("NotAuthenticated", "The session is not authenticated.", {
        object: moRef("ServiceInstance", "ServiceInstance"),
        privilegeId: "System.View",
      });
      sendSoap(res, FAULT_STATUS, soapFault(fault));
      return;
    }
    const handler = METHODS[method.name];
    const reply: Reply = handler
      ? handler({ state, soap, self: child(method, "_this"), params: method, req })
      : { fault: viFault("MethodNotFound", `${method.name} is not modelled by the mock`) };
    if (reply.fault) {
      sendSoap(res, FAULT_STATUS, soapFault(reply.fault));
      return;
    }
    if (reply.cookie !== undefined) res.setHeader("Set-Cookie", `${SOAP_SESSION_COOKIE}="${reply.cookie}"; Path=/; HttpOnly; Secure;`);
    sendSoap(res, 200, soapResponse(method.name, reply.returnval));
  });
}

function readCookie(header: string | undefined): string | undefined {
  const m = header === undefined ? null : new RegExp(`${SOAP_SESSION_COOKIE}="?([^";]+)"?`).exec(header);
  return m?.[1];
}

const METHODS: Readonly<Record<string, (c: Call) => Reply>> = {
  RetrieveServiceContent: ({ state }) => ({ returnval: serviceContent(state) }),
  CurrentTime: ({ state }) => ({ returnval: new Date(state.clock()).toISOString() }),
  Login: ({ state, params, req }) => {
    const want = state.scenario.credentials;
    if (textOf(params, "userName") !== want.username || textOf(params, "password") !== want.password) {
      state.stats.unauthorizedServed += 1;
      return { fault: viFault("InvalidLogin", "Cannot complete login due to an incorrect user name or password.") };
    }
    const token = openSession(state, "soap", want.username);
    const now = new Date(state.clock()).toISOString();
    const session = { _typeName: "UserSession", key: token, userName: vcenterUserName(want.username), loginTime: now, lastActiveTime: now };
    return { returnval: { ...session, ipAddress: req.socket.remoteAddress ?? "127.0.0.1" }, cookie: token };
  },
  Logout: ({ state, self, req }) => {
    if (self?.text !== SESSION_MANAGER_ID) return { fault: managedObjectNotFound("SessionManager", self?.text ?? "") };
    closeSession(state, readCookie(req.get("cookie")) ?? "");
    state.stats.logouts.soap += 1;
    return {};
  },
  CreateContainerView: ({ soap, params }) => {
    const id = `session[mock]view-${soap.next++}`;
    soap.views.set(
      id,
      children(params, "type").map((t) => t.text),
    );
    return { returnval: moRef("ContainerView", id) };
  },
  DestroyView: ({ soap, self }) =>
    soap.views.delete(self?.text ?? "") ? {} : { fault: managedObjectNotFound("ContainerView", self?.text ?? "") },
  RetrievePropertiesEx: (c) => retrieve(c),
  ContinueRetrievePropertiesEx: ({ soap, params }) => {
    const token = textOf(params, "token") ?? "";
    const rest = soap.pages.get(token);
    if (!rest) return { fault: viFault("InvalidArgument", "A specified parameter was not correct: token", { invalidProperty: "token" }) };
    soap.pages.delete(token);
    return { returnval: page(soap, rest, rest.length) };
  },
  QueryOptions: ({ state, self, params }) => {
    if (self?.text !== SETTING_ID) return { fault: managedObjectNotFound("OptionManager", self?.text ?? "") };
    const r = queryOptionsReply(state, textOf(params, "name"));
    return "fault" in r ? { fault: r.fault } : { returnval: r.options };
  },
  QueryPerf: ({ state, self, params }) => {
    if (self?.text !== PERF_MANAGER_ID) return { fault: managedObjectNotFound("PerformanceManager", self?.text ?? "") };
    state.stats.queryPerfCalls += 1;
    const body = { querySpec: children(params, "querySpec").map(toJsonSpec) };
    if (namesFailingHost(state, body))
      return { fault: viFault("SystemError", "A general system error occurred: injected host fault", { reason: "injected host fault" }) };
    const r = queryPerf(state, body);
    state.stats.maxMetricsInOneQuery = Math.max(state.stats.maxMetricsInOneQuery, r.metrics);
    return r.status === 200 ? { returnval: r.body } : { fault: r.body as object };
  },
};

/** A SOAP PerfQuerySpec as the VI/JSON body `queryPerf` reads (numbers from text). */
function toJsonSpec(spec: XmlElement): object {
  const entity = child(spec, "entity");
  const num = (name: string) => (textOf(spec, name) !== undefined ? Number(textOf(spec, name)) : undefined);
  return {
    _typeName: "PerfQuerySpec",
    ...(entity ? { entity: moRef(entity.attrs["type"] ?? "", entity.text) } : {}),
    metricId: children(spec, "metricId").map((m) => ({
      _typeName: "PerfMetricId",
      counterId: Number(textOf(m, "counterId")),
      ...(child(m, "instance") ? { instance: textOf(m, "instance") } : {}),
    })),
    ...(num("intervalId") !== undefined ? { intervalId: num("intervalId") } : {}),
    ...(num("maxSample") !== undefined ? { maxSample: num("maxSample") } : {}),
    ...(textOf(spec, "startTime") !== undefined ? { startTime: textOf(spec, "startTime") } : {}),
    ...(textOf(spec, "endTime") !== undefined ? { endTime: textOf(spec, "endTime") } : {}),
  };
}

/** RetrievePropertiesEx over a ContainerView (with its traversal) or of one object; `maxObjects` per page. */
function retrieve({ state, soap, params }: Call): Reply {
  const spec = child(params, "specSet");
  const objectSpec = spec ? child(spec, "objectSet") : undefined;
  const obj = objectSpec ? child(objectSpec, "obj") : undefined;
  if (!spec || !obj)
    return { fault: viFault("InvalidArgument", "A specified parameter was not correct: specSet", { invalidProperty: "specSet" }) };
  const paths = new Map(
    children(spec, "propSet").map((p) => [textOf(p, "type") ?? "", children(p, "pathSet").map((x) => x.text)] as const),
  );
  const type = obj.attrs["type"] ?? "";
  let targets: Array<{ type: string; value: string }>;
  if (type === "ContainerView") {
    const viewTypes = soap.views.get(obj.text);
    if (!viewTypes) return { fault: managedObjectNotFound("ContainerView", obj.text) };
    targets = inventoryObjects(state).filter((o) => viewTypes.includes(o.type) && paths.has(o.type));
  } else {
    targets = [{ type, value: obj.text }];
  }
  const contents: object[] = [];
  for (const t of targets) {
    const propSet: object[] = [];
    for (const path of paths.get(t.type) ?? []) {
      const value = propertyValue(state, t, path);
      if (value === NOT_FOUND) return { fault: managedObjectNotFound(t.type, t.value) };
      if (value === UNKNOWN_PATH) return { fault: viFault("InvalidProperty", `Invalid property '${path}'`, { name: path }) };
      if (value !== undefined) propSet.push({ _typeName: "DynamicProperty", name: path, val: value });
    }
    contents.push({ _typeName: "ObjectContent", obj: moRef(t.type, t.value), propSet });
  }
  const options = child(params, "options");
  const max = Number(options ? textOf(options, "maxObjects") : undefined);
  return { returnval: page(soap, contents, Number.isInteger(max) && max > 0 ? max : contents.length) };
}

function page(soap: SoapState, contents: object[], max: number): object {
  const first = contents.slice(0, max);
  const rest = contents.slice(max);
  if (rest.length === 0) return { _typeName: "RetrieveResult", objects: first };
  const token = `page-${soap.next++}`;
  soap.pages.set(token, rest);
  return { _typeName: "RetrieveResult", token, objects: first };
}

function inventoryObjects(state: MockState): Array<{ type: string; value: string }> {
  return [
    ...state.scenario.clusters.map((c) => ({ type: "ClusterComputeResource", value: c.id })),
    ...[...state.hosts.keys()].map((value) => ({ type: "HostSystem", value })),
    ...[...state.vms.keys()].map((value) => ({ type: "VirtualMachine", value })),
  ];
}

const NOT_FOUND = Symbol("not found");
const UNKNOWN_PATH = Symbol("unknown path");
const VM_POWER = { POWERED_ON: "poweredOn", POWERED_OFF: "poweredOff", SUSPENDED: "suspended" } as const;
const int = (n: number) => ({ _typeName: "int", _value: n });

/** One property of one object, as vCenter's PropertyCollector answers it (undefined: unset, left out). */
function propertyValue(state: MockState, o: { type: string; value: string }, path: string): unknown {
  if (o.type === "ClusterComputeResource") {
    const c = state.scenario.clusters.find((x) => x.id === o.value);
    if (!c) return NOT_FOUND;
    return path === "name" ? c.name : UNKNOWN_PATH;
  }
  if (o.type === "HostSystem") {
    const h = state.hosts.get(o.value);
    if (!h) return NOT_FOUND;
    if (path === "name") return h.name;
    if (path === "parent")
      return h.cluster ? moRef("ClusterComputeResource", h.cluster) : moRef("ComputeResource", `domain-s${h.id.slice(5)}`);
    const summary = toHostListSummaryWire(state, h) as Record<string, unknown>;
    if (path === "runtime.powerState") return (summary["runtime"] as Record<string, unknown>)["powerState"];
    if (path.startsWith("summary.")) return walk(summary, path.slice("summary.".length));
    return UNKNOWN_PATH;
  }
  if (o.type === "VirtualMachine") {
    const v = state.vms.get(o.value);
    if (!v) return NOT_FOUND;
    const props: Record<string, unknown> = {
      name: v.name,
      "config.uuid": v.biosUuid,
      "config.instanceUuid": v.instanceUuid ?? instanceUuidFor(v.biosUuid),
      "config.hardware.numCPU": int(v.vcpus),
      "config.hardware.memoryMB": int(v.memoryMiB),
      "runtime.powerState": VM_POWER[v.powerState],
      "runtime.host": moRef("HostSystem", v.host),
      "summary.config.memoryReservation": int(v.memoryReservationMiB),
      "summary.config.cpuReservation": int(v.cpuReservationMhz),
    };
    return path in props ? props[path] : UNKNOWN_PATH;
  }
  if (o.type === "PerformanceManager" && o.value === PERF_MANAGER_ID) {
    if (path !== "perfCounter") return UNKNOWN_PATH;
    return {
      _typeName: "ArrayOfPerfCounterInfo",
      PerfCounterInfo: toPerfCounterInfoWire(state.scenario.counterKeyOffset, state.scenario.memStateEncoding),
    };
  }
  return NOT_FOUND;
}

/** `hardware.cpuMhz` of a summary object; numbers travel as xsd:int/long, booleans and text as they are. */
function walk(root: Record<string, unknown>, path: string): unknown {
  let at: unknown = root;
  for (const part of path.split(".")) {
    if (at === null || typeof at !== "object") return UNKNOWN_PATH;
    at = (at as Record<string, unknown>)[part];
  }
  if (typeof at === "number") return { _typeName: Number.isSafeInteger(at) && Math.abs(at) > 2 ** 31 ? "long" : "int", _value: at };
  if (typeof at === "boolean") return { _typeName: "boolean", _value: at };
  return at;
}
