/**
 * New pods from one Deployment template, as kube-scheduler sends them: every pod its own name
 * (the ReplicaSet's `generateName` plus a suffix) and uid; owner, requests, limits and the
 * rest of the template unchanged. Bodies are cut from one serialisation of the template, so
 * making one costs the load generator two string joins, not a JSON round trip.
 */

/** The characters of the suffix the API server appends to `generateName` (k8s.io/apimachinery `rand.String`). */
const SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
const SUFFIX_MIN_CHARS = 5;
const NAME_MARK = "\u0000hvx-bench-name\u0000";
const UID_MARK = "\u0000hvx-bench-uid\u0000";

/** Suffix of pod `index` (>= 0, an integer): distinct for distinct indices, at least 5 characters of the API server's alphabet. */
export function podNameSuffix(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`pod index must be a non-negative integer, got ${index}`);
  let out = "";
  let rest = index;
  do {
    out = SUFFIX_ALPHABET[rest % SUFFIX_ALPHABET.length] + out;
    rest = Math.floor(rest / SUFFIX_ALPHABET.length);
  } while (rest > 0);
  return out.padStart(SUFFIX_MIN_CHARS, SUFFIX_ALPHABET[0]);
}

/** UID of pod `index`: shaped like the API server's (a version-4 UUID), distinct for distinct indices. */
export function podUid(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`pod index must be a non-negative integer, got ${index}`);
  return `b3e7c0de-0000-4000-8000-${index.toString(16).padStart(12, "0")}`;
}

export interface FreshPod {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The ExtenderArgs (filter and prioritize) carrying this pod. */
  readonly argsJson: string;
  /** The Pod alone, pending (no `spec.nodeName`), as its ReplicaSet creates it in the API server. */
  readonly podJson: string;
}

/** Cuts a JSON text around the two marks (each present exactly once) into the pieces `join` puts back. */
function cut(json: string): { pieces: string[]; nameFirst: boolean } {
  const n = json.indexOf(JSON.stringify(NAME_MARK));
  const u = json.indexOf(JSON.stringify(UID_MARK));
  if (n < 0 || u < 0) throw new Error("the template's Pod needs metadata.name and metadata.uid to replace");
  const [first, second] = n < u ? [NAME_MARK, UID_MARK] : [UID_MARK, NAME_MARK];
  const [head, rest] = json.split(JSON.stringify(first)) as [string, string];
  const [mid, tail] = rest.split(JSON.stringify(second)) as [string, string];
  return { pieces: [head, mid, tail], nameFirst: n < u };
}

export class FreshPods {
  private readonly args: { pieces: string[]; nameFirst: boolean };
  private readonly pod: { pieces: string[]; nameFirst: boolean };
  private readonly namespace: string;
  private readonly generateName: string;

  /** `argsJson`: ExtenderArgs whose `Pod` is the template (its `generateName`, else its name and `-`, starts every name). */
  constructor(argsJson: string) {
    const args = JSON.parse(argsJson) as { Pod?: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> } };
    const meta = args.Pod?.metadata;
    if (!meta || typeof meta.name !== "string") throw new Error("the template ExtenderArgs carry no Pod with metadata.name");
    this.namespace = typeof meta.namespace === "string" ? meta.namespace : "default";
    this.generateName = typeof meta.generateName === "string" ? meta.generateName : `${meta.name}-`;
    const marked = { ...args.Pod, metadata: { ...meta, name: NAME_MARK, uid: UID_MARK } as Record<string, unknown> };
    this.args = cut(JSON.stringify({ ...args, Pod: marked }));
    const { nodeName: _bound, ...pendingSpec } = args.Pod?.spec ?? {};
    const { resourceVersion: _rv, ...pendingMeta } = marked.metadata;
    this.pod = cut(JSON.stringify({ apiVersion: "v1", kind: "Pod", ...marked, metadata: pendingMeta, spec: pendingSpec }));
  }

  /** Pod `index` (a non-negative integer; distinct indices give distinct names and uids). */
  at(index: number): FreshPod {
    const name = this.generateName + podNameSuffix(index);
    const uid = podUid(index);
    const join = (t: { pieces: string[]; nameFirst: boolean }) => {
      const [a, b] = t.nameFirst ? [name, uid] : [uid, name];
      return `${t.pieces[0]}${JSON.stringify(a)}${t.pieces[1]}${JSON.stringify(b)}${t.pieces[2]}`;
    };
    return { namespace: this.namespace, name, uid, argsJson: join(this.args), podJson: join(this.pod) };
  }
}
