import type { ValveOutcome } from "../placement/all-rejected-valve.js";
import { extenderPriority, type FilterOutcome, type NodeScore } from "../placement/filter-nodes.js";
import type { Reason } from "../placement/reason.js";
import type { ExtenderFilterResult, HostPriority, WireNodeList } from "./extender-wire.js";
import type { CandidateNameFacts } from "./candidate-names.js";
import type { ParsedExtenderArgs } from "./parse-extender-args.js";
import { formatWireReasons, printfSafe } from "./format-wire-reason.js";
import { PassMarks } from "../model/pass-marks.js";

/**
 * Builds ExtenderFilterResult in the mode the request used: names back for NodeNames
 * (only names that were sent), a NodeList of the passing Node objects for Nodes.
 * When the all-rejected valve opened, the nodes it passed go back as passing (the reply has
 * no warning field for a passing node) and every node still rejected for host heat says so.
 */
export function toFilterResultWire(
  request: ParsedExtenderArgs,
  outcome: FilterOutcome & { readonly valve?: ValveOutcome },
  textOf: (reasons: readonly Reason[]) => string = formatWireReasons,
): ExtenderFilterResult {
  const { failed, unresolvable } = reasonMaps(outcome, textOf);
  if (request.mode === "nodeNames") {
    return { Nodes: null, NodeNames: [...outcome.passed], FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: "" };
  }
  const list = request.args.Nodes as WireNodeList;
  const passing = new Set(outcome.passed);
  const items = list.items.filter((n) => passing.has(n.metadata?.name as string));
  return { Nodes: { ...listHead(list), items }, NodeNames: null, FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: "" };
}

/**
 * `JSON.stringify(toFilterResultWire(...))`, without serializing what the request already
 * holds as text. In `NodeNames` mode it is built from per-reason-list JSON fragments (`jsonOf`:
 * the quoted text of a list, which the caller may keep per snapshot), so a reply does not
 * rebuild and re-escape every node's reason text, nor build the reason maps. In `Nodes` mode
 * the passing nodes are the request's own texts of them (`itemTexts`, `nodeItemTexts`): the
 * same bytes for a body as `JSON.stringify` writes it, the same objects once decoded for any.
 */
export function filterResultJson(
  request: ParsedExtenderArgs,
  outcome: FilterOutcome & { readonly valve?: ValveOutcome },
  textOf: (reasons: readonly Reason[]) => string,
  jsonOf: (reasons: readonly Reason[]) => string,
  names: CandidateNameFacts,
  itemTexts: () => readonly string[] | undefined = () => undefined,
): string {
  if (request.mode === "nodes") return nodesModeJson(request, outcome, textOf, itemTexts());
  if (outcome.valve?.action === "passed-coolest" || !rejectedKeepOrder(outcome.decisions))
    return JSON.stringify(toFilterResultWire(request, outcome, textOf));
  let failed = "";
  let unresolvable = "";
  for (const d of outcome.decisions) {
    if (d.verdict === "pass") continue;
    const entry = `${names.plainText ? `"${d.node}"` : JSON.stringify(d.node)}:${jsonOf(d.reasons)}`;
    if (d.unresolvable) unresolvable += unresolvable === "" ? entry : `,${entry}`;
    else failed += failed === "" ? entry : `,${entry}`;
  }
  return `{"Nodes":null,"NodeNames":${JSON.stringify(outcome.passed)},"FailedNodes":{${failed}},"FailedAndUnresolvableNodes":{${unresolvable}},"Error":""}`;
}

/** Names that a JavaScript object would move ahead of the others (array indexes). */
const INDEX_LIKE = /^(0|[1-9][0-9]*)$/;

/** The rejected names met by a reply (`rejectedKeepOrder`); bounded, as names come from requests. */
const REJECTED_NAMES = new PassMarks(20_000);

/** Whether a JSON object of the rejected nodes' names keeps them in the order sent: each distinct, none index-like nor `__proto__`. */
function rejectedKeepOrder(decisions: FilterOutcome["decisions"]): boolean {
  const pass = REJECTED_NAMES.begin();
  for (const { verdict, node } of decisions) {
    if (verdict === "pass") continue;
    if (INDEX_LIKE.test(node) || node === "__proto__" || !REJECTED_NAMES.first(node, pass)) return false;
  }
  return true;
}

function nodesModeJson(
  request: ParsedExtenderArgs,
  outcome: FilterOutcome & { readonly valve?: ValveOutcome },
  textOf: (reasons: readonly Reason[]) => string,
  texts: readonly string[] | undefined,
): string {
  const list = request.args.Nodes as WireNodeList;
  if (texts === undefined || texts.length !== list.items.length) return JSON.stringify(toFilterResultWire(request, outcome, textOf));
  const passing = new Set(outcome.passed);
  let items = "";
  for (let i = 0; i < texts.length; i++) {
    if (!passing.has(list.items[i]!.metadata?.name as string)) continue;
    items += items === "" ? texts[i]! : `,${texts[i]!}`;
  }
  const head = JSON.stringify(listHead(list));
  const { failed, unresolvable } = reasonMaps(outcome, textOf);
  return (
    `{"Nodes":${head.slice(0, -1)},"items":[${items}]},"NodeNames":null,` +
    `"FailedNodes":${JSON.stringify(failed)},"FailedAndUnresolvableNodes":${JSON.stringify(unresolvable)},"Error":""}`
  );
}

/** A NodeList reply's members before `items`. */
function listHead(list: WireNodeList): Omit<WireNodeList, "items"> {
  return {
    ...(list.apiVersion ? { apiVersion: list.apiVersion } : {}),
    ...(list.kind ? { kind: list.kind } : {}),
    metadata: list.metadata ?? {},
  };
}

/** The reply's reason maps; when the valve opened, every node still rejected for host heat says so. */
function reasonMaps(outcome: FilterOutcome & { readonly valve?: ValveOutcome }, textOf: (reasons: readonly Reason[]) => string) {
  const failed = toReasonMap(outcome.failed, textOf);
  const unresolvable = toReasonMap(outcome.unresolvable, textOf);
  if (outcome.valve?.action === "passed-coolest") {
    const note = valveNote(outcome.valve);
    for (const node of Object.keys(unresolvable)) unresolvable[node] = `${unresolvable[node]}; ${note}`;
  }
  return { failed, unresolvable };
}

/**
 * A filter reply carrying only an error: kube-scheduler fails (or, if ignorable, skips) the
 * extender. It reads `Error` as a printf format (`fmt.Errorf(result.Error)`), hence `printfSafe`.
 */
export function filterErrorWire(message: string): ExtenderFilterResult {
  return { Nodes: null, NodeNames: null, FailedNodes: {}, FailedAndUnresolvableNodes: {}, Error: printfSafe(message) };
}

/** HostPriorityList: integer scores clamped to 0..10. */
export function toPrioritizeWire(scores: readonly NodeScore[]): HostPriority[] {
  return scores.map((s) => ({ Host: s.node, Score: extenderPriority(s.score) }));
}

/** `JSON.stringify(toPrioritizeWire(scores))`, byte for byte, without the objects when no name needs escaping. */
export function prioritizeJson(scores: readonly NodeScore[], names: CandidateNameFacts): string {
  if (!names.plainText) return JSON.stringify(toPrioritizeWire(scores));
  let out = "";
  for (const s of scores) out += `${out === "" ? "" : ","}{"Host":"${s.node}","Score":${extenderPriority(s.score)}}`;
  return `[${out}]`;
}

/** Names at most this many passed nodes in a note; the rest are counted. */
const NOTE_MAX_NODES = 5;

/** The warning added to the still-rejected nodes' reasons when the valve opened. */
export function valveNote(valve: ValveOutcome): string {
  const shown = valve.passed.slice(0, NOTE_MAX_NODES).join(", ");
  const more = valve.passed.length > NOTE_MAX_NODES ? ` and ${valve.passed.length - NOTE_MAX_NODES} more` : "";
  return `hvx: host heat rejected every candidate, so the coolest tier passed anyway (${shown}${more}; filter.whenAllRejected: pass-coolest)`;
}

function toReasonMap(
  reasons: ReadonlyMap<string, readonly Reason[]>,
  textOf: (reasons: readonly Reason[]) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [node, list] of reasons) out[node] = textOf(list);
  return out;
}
