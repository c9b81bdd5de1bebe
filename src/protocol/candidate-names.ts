import type { NodeIdentity } from "../model/node.js";

/** What a reply built from JSON fragments needs to know of a request's candidate names. */
export interface CandidateNameFacts {
  /** No name needs escaping in JSON: `"` + name + `"` is its JSON string. */
  readonly plainText: boolean;
}

/** Characters JSON.stringify writes as themselves (what Kubernetes node names are made of, and more): printable ASCII but `"` and `\`. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * Remembers the last two candidate lists of `NodeNames` requests: kube-scheduler sends the same
 * candidates request after request (and a pod's prioritize the filter's passing ones), and
 * comparing a list with a remembered one costs far less than building and judging it again.
 * A list sent again gets the very same identities (so every per-name lookup downstream meets
 * names it has hashed before, and an identity check settles "the same list").
 */
export class CandidateNames {
  private recent: Array<{ readonly nodes: readonly NodeIdentity[]; facts?: CandidateNameFacts }> = [];

  /** The identities of `names`: the remembered list when the names are the same, in the same order. */
  identities(names: readonly string[]): readonly NodeIdentity[] {
    for (const r of this.recent) if (sameNames(r.nodes, names)) return r.nodes;
    const nodes = names.map((name) => ({ name }));
    this.recent = [{ nodes }, ...this.recent.slice(0, 1)];
    return nodes;
  }

  /** What a reply needs to know of the names: judged once per remembered list, else (full `Nodes` mode) every time. */
  factsOf(nodes: readonly NodeIdentity[]): CandidateNameFacts {
    const known = this.recent.find((r) => r.nodes === nodes);
    return known ? (known.facts ??= judge(nodes)) : judge(nodes);
  }
}

function judge(nodes: readonly NodeIdentity[]): CandidateNameFacts {
  for (const { name } of nodes) if (!PLAIN_TEXT.test(name)) return { plainText: false };
  return PLAIN_NAMES;
}

const PLAIN_NAMES: CandidateNameFacts = { plainText: true };

function sameNames(a: readonly NodeIdentity[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.name !== b[i]) return false;
  return true;
}
