import type { IncomingMessage, ServerResponse } from "node:http";
import { applyPatch, PATCH_CONTENT_TYPES, PatchError, type PatchContentType } from "./apply-patch.js";
import {
  alreadyExists,
  conflict,
  forbidden,
  kubeStatus,
  notFound,
  resourceVersionRequired,
  serverError,
  unauthorized,
} from "./kube-status.js";
import type { RbacAuthorizer, UserInfo } from "./rbac.js";
import { requestInfo } from "./request-info.js";
import type { KubeObject, ResourceStore, ResourceType, RevisionClock } from "./resource-store.js";
import { groupOf, supportedFields } from "./resource-types.js";
import { routeRequest, type Route } from "./route-request.js";
import { parseSelectors, SelectorError, type Matcher } from "./selector.js";
import { send } from "./send-json.js";
import { discoveryDocument } from "./serve-discovery.js";
import { serveList } from "./serve-list.js";
import { serveWatch, type WatchHandle } from "./serve-watch.js";
import { BINDING_PATH, serveBinding } from "./serve-binding.js";
import { EVICTION_PATH, readEvictionBody, serveEviction } from "./serve-eviction.js";
import { serveSubjectAccessReview, serveTokenReview, SUBJECT_ACCESS_REVIEW_PATH, TOKEN_REVIEW_PATH } from "./serve-access-reviews.js";
import { EVENTS, PODS, POD_DISRUPTION_BUDGETS } from "./resource-types.js";

export interface FakeFault {
  /** Every request is answered with this status (500, 503, ...) and a Status body. */
  status5xx?: number;
  /** Added before every answer, watch streams included. */
  latencyMs?: number;
}

export interface FakeStats {
  requests: number;
  lists: number;
  watchesStarted: number;
  watchesOpen: number;
  gets: number;
  creates: number;
  updates: number;
  patches: number;
  deletes: number;
  faults: number;
  /** Requests refused with 401 (no or unknown bearer token). */
  unauthorized: number;
  /** Requests refused with 403 by RBAC, as `verb group/resource [namespace/]name`, in order. */
  forbidden: string[];
  /** Content types of PATCH requests, counted. */
  patchContentTypes: Record<string, number>;
  /** Eviction subresource outcomes, in order: `evicted ns/name` or `blocked ns/name` (PDB, 429). */
  evictions: string[];
  /** Binding subresource requests (`pods/binding`), whatever their outcome. */
  bindings: number;
}

export interface FakeState {
  readonly clock: RevisionClock;
  readonly stores: ReadonlyMap<ResourceType, ResourceStore>;
  fault: FakeFault;
  expiredAsHttp: boolean;
  readonly bookmarkIntervalMs: number;
  readonly watches: Set<WatchHandle>;
  readonly stats: FakeStats;
  /** Bearer token -> user. */
  readonly tokens: ReadonlyMap<string, UserInfo>;
  /** Who a request without a bearer token is; undefined: 401. */
  readonly anonymous: UserInfo | undefined;
  /** undefined: every authenticated user may do anything. */
  readonly authorizer: RbacAuthorizer | undefined;
}

const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Serves one request against the fake's stores; never throws. */
export async function handleRequest(state: FakeState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  state.stats.requests++;
  try {
    if (state.fault.latencyMs) await new Promise((r) => setTimeout(r, state.fault.latencyMs));
    if (state.fault.status5xx) {
      state.stats.faults++;
      send(res, state.fault.status5xx, serverError(state.fault.status5xx));
      return;
    }
    const url = new URL(req.url ?? "/", "http://fake");
    // Authentication, then authorisation, before anything else, like the real server's filter chain.
    const header = req.headers.authorization ?? "";
    const user = header.startsWith("Bearer ") ? state.tokens.get(header.slice(7).trim()) : state.anonymous;
    if (!user) {
      state.stats.unauthorized++;
      send(res, 401, unauthorized());
      return;
    }
    const info = requestInfo(req.method ?? "GET", url);
    if (state.authorizer && !state.authorizer.allows(user, info)) {
      const what = info.isResourceRequest
        ? `${info.apiGroup}/${info.resource} ${info.namespace === "" ? "" : `${info.namespace}/`}${info.name}`
        : info.path;
      if (state.stats.forbidden.length < 1000) state.stats.forbidden.push(`${info.verb} ${what}`.trimEnd());
      send(res, 403, forbidden(user.name, info));
      return;
    }
    if (req.method === "POST" && url.pathname === TOKEN_REVIEW_PATH)
      return serveTokenReview(state.tokens, await readEvictionBody(req), res);
    if (req.method === "POST" && url.pathname === SUBJECT_ACCESS_REVIEW_PATH)
      return serveSubjectAccessReview(state.authorizer, await readEvictionBody(req), res);
    const eviction = EVICTION_PATH.exec(url.pathname);
    if (eviction) {
      if (req.method !== "POST")
        return send(res, 405, kubeStatus(405, "MethodNotAllowed", "the server does not allow this method on the requested resource"));
      const stores = { pods: state.stores.get(PODS)!, budgets: state.stores.get(POD_DISRUPTION_BUDGETS)! };
      return serveEviction(stores, eviction[1]!, eviction[3]!, await readEvictionBody(req), res, state.stats.evictions);
    }
    const binding = BINDING_PATH.exec(url.pathname);
    if (binding) {
      if (req.method !== "POST")
        return send(res, 405, kubeStatus(405, "MethodNotAllowed", "the server does not allow this method on the requested resource"));
      state.stats.bindings++;
      return serveBinding(state.stores.get(PODS)!, binding[1]!, binding[3]!, await readEvictionBody(req), res);
    }
    const route = routeRequest(url.pathname);
    const store = route && state.stores.get(route.type);
    const discovery = req.method === "GET" ? discoveryDocument(url.pathname) : undefined;
    if (discovery !== undefined) {
      send(res, 200, discovery);
      return;
    }
    if (!route || !store) {
      send(res, 404, kubeStatus(404, "NotFound", "the server could not find the requested resource"));
      return;
    }
    await dispatch(state, store, route, url.searchParams, req, res);
  } catch (err) {
    if (err instanceof SelectorError || err instanceof SyntaxError) send(res, 400, kubeStatus(400, "BadRequest", err.message));
    else if (err instanceof PatchError) send(res, 422, kubeStatus(422, "Invalid", err.message));
    else send(res, 500, kubeStatus(500, "InternalError", `Internal error occurred: ${(err as Error).message}`));
  }
}

async function dispatch(
  state: FakeState,
  store: ResourceStore,
  route: Route,
  params: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const type = route.type;
  const group = groupOf(type);
  const namespace = route.namespace ?? "";
  const method = req.method ?? "GET";
  if (route.name === undefined) {
    if (method === "GET") {
      const selectorMatch = parseSelectors(params.get("labelSelector"), params.get("fieldSelector"), supportedFields(type));
      const matches: Matcher = route.namespace === undefined ? selectorMatch : (i) => i.namespace === namespace && selectorMatch(i);
      if (params.get("watch") === "true" || params.get("watch") === "1") return watch(state, store, matches, params, req, res);
      return serveList(state, store, matches, params, res);
    }
    if (method === "POST") {
      const body = await readJson(req);
      if (type.namespaced && (body.metadata?.namespace ?? namespace) !== namespace) {
        return send(
          res,
          400,
          kubeStatus(400, "BadRequest", "the namespace of the provided object does not match the namespace sent on the request"),
        );
      }
      const name = body.metadata?.name;
      if (typeof name !== "string" || name === "")
        return send(
          res,
          422,
          kubeStatus(
            422,
            "Invalid",
            `${type.kind}.${group} "" is invalid: metadata.name: Required value: name or generateName is required`,
          ),
        );
      if (store.get(namespace, name)) return send(res, 409, alreadyExists(type.resource, group, name));
      const invalid = type === EVENTS ? invalidEvent(body) : undefined;
      if (invalid) return send(res, 422, kubeStatus(422, "Invalid", `Event "${name}" is invalid: ${invalid}`));
      if (type.namespaced) body.metadata.namespace = namespace;
      delete body.metadata.resourceVersion;
      state.stats.creates++;
      return send(res, 201, store.put(body).json);
    }
    return send(res, 405, kubeStatus(405, "MethodNotAllowed", "the server does not allow this method on the requested resource"));
  }

  const name = route.name;
  const current = store.get(namespace, name);
  if (method === "GET") {
    state.stats.gets++;
    return current ? send(res, 200, current.json) : send(res, 404, notFound(type.resource, group, name));
  }
  if (method === "DELETE") {
    if (!current) return send(res, 404, notFound(type.resource, group, name));
    state.stats.deletes++;
    return send(res, 200, store.delete(namespace, name)?.json ?? current.json);
  }
  if (method !== "PUT" && method !== "PATCH") {
    return send(res, 405, kubeStatus(405, "MethodNotAllowed", "the server does not allow this method on the requested resource"));
  }
  let next: KubeObject;
  if (method === "PUT") {
    next = await readJson(req);
    if (next.metadata?.name !== name)
      return send(res, 400, kubeStatus(400, "BadRequest", "the name of the object does not match the name on the URL"));
    if (!current) return send(res, 404, notFound(type.resource, group, name));
    const rv = next.metadata?.resourceVersion;
    const unconditional = rv === undefined || rv === null || rv === "";
    if (unconditional && !type.allowUnconditionalUpdate) return send(res, 422, resourceVersionRequired(type.resource, group, name));
    if (!unconditional && String(rv) !== String(current.rv)) return send(res, 409, conflict(type.resource, group, name));
    state.stats.updates++;
  } else {
    const contentType = (req.headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
    state.stats.patchContentTypes[contentType] = (state.stats.patchContentTypes[contentType] ?? 0) + 1;
    if (!(PATCH_CONTENT_TYPES as readonly string[]).includes(contentType)) {
      return send(
        res,
        415,
        kubeStatus(
          415,
          "UnsupportedMediaType",
          `the body of the request was in an unknown format - accepted media types include: ${PATCH_CONTENT_TYPES.join(", ")}`,
        ),
      );
    }
    if (!current) return send(res, 404, notFound(type.resource, group, name));
    const patch = await readJson(req);
    const before = JSON.parse(current.json) as KubeObject;
    next = applyPatch(before, patch, contentType as PatchContentType) as KubeObject;
    if (typeof next !== "object" || next === null || next.metadata?.name !== name)
      throw new PatchError("the patch may not change metadata.name");
    const rv = next.metadata?.resourceVersion;
    if (rv !== String(current.rv)) return send(res, 409, conflict(type.resource, group, name));
    state.stats.patches++;
    // A patch that changes nothing does not bump the resourceVersion (like the real server).
    if (JSON.stringify(next) === current.json) return send(res, 200, current.json);
  }
  if (type.namespaced) next.metadata.namespace = namespace;
  return send(res, 200, store.put(next).json);
}

function watch(
  state: FakeState,
  store: ResourceStore,
  matches: Matcher,
  params: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  state.stats.watchesStarted++;
  state.stats.watchesOpen++;
  const timeout = Number(params.get("timeoutSeconds") ?? "0");
  // `ended` may run before serveWatch returns (a request already closed): `let`, so it reads undefined then.
  // eslint-disable-next-line prefer-const
  let handle: WatchHandle | undefined;
  const ended = (): void => {
    state.stats.watchesOpen--;
    if (handle) state.watches.delete(handle);
  };
  handle = serveWatch(
    req,
    res,
    {
      store,
      clock: state.clock,
      matches,
      resourceVersion: params.get("resourceVersion"),
      allowWatchBookmarks: params.get("allowWatchBookmarks") === "true",
      timeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
      bookmarkIntervalMs: state.bookmarkIntervalMs,
      expiredAsHttp: state.expiredAsHttp,
    },
    ended,
  );
  if (!res.writableEnded) state.watches.add(handle);
}

/**
 * The core/v1 Event checks of the real validation (legacyValidateEvent) that matter to a writer:
 * an Event with `eventTime` needs reportingComponent, reportingInstance, action and reason; the
 * note is at most 1 kB; the involved object's namespace is the Event's.
 */
function invalidEvent(e: KubeObject): string | undefined {
  const ns = e.metadata?.namespace;
  if (e.involvedObject?.namespace !== undefined && e.involvedObject.namespace !== ns)
    return "involvedObject.namespace: Invalid value: does not match event.namespace";
  if (typeof e.message === "string" && e.message.length > 1024) return "message: Too long: must have at most 1024 bytes";
  if (!e.eventTime) return undefined;
  for (const field of ["reportingComponent", "reportingInstance", "action", "reason"]) {
    if (typeof e[field] !== "string" || e[field] === "") return `${field}: Required value`;
  }
  return undefined;
}

async function readJson(req: IncomingMessage): Promise<KubeObject> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new SyntaxError("request entity too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  const body = JSON.parse(text) as unknown;
  if (typeof body !== "object" || body === null) throw new SyntaxError("the request body must be a JSON object or array");
  return body as KubeObject;
}
