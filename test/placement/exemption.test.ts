import { expect } from "chai";
import { exemptionOf, namespaceMatches, type PodMeta } from "../../src/placement/exemption.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const pod = (over: Partial<PodMeta> = {}): PodMeta => ({
  namespace: "payments",
  name: "api-0",
  ownerKinds: ["ReplicaSet"],
  annotations: {},
  ...over,
});
const policy = DEFAULT_POLICY.exempt;

describe("exemptionOf", () => {
  it("given a DaemonSet, system-critical or exempt-namespace pod, exempts it from every rule", () => {
    expect(exemptionOf(pod({ ownerKinds: ["DaemonSet"] }), policy)).to.deep.equal({ by: "DaemonSet pod", scope: "all" });
    expect(exemptionOf(pod({ priorityClassName: "system-node-critical" }), policy)).to.deep.equal({
      by: "priority class system-node-critical",
      scope: "all",
    });
    expect(exemptionOf(pod({ priority: 2_000_000_000 }), policy)).to.deep.equal({
      by: "system-critical priority 2000000000",
      scope: "all",
    });
    expect(exemptionOf(pod({ namespace: "kube-system" }), policy)).to.deep.equal({ by: "namespace kube-system", scope: "all" });
  });

  it('given hvx.io/exempt: "true", exempts it from the host-heat rules only', () => {
    expect(exemptionOf(pod({ annotations: { "hvx.io/exempt": "true" } }), policy)).to.deep.equal({
      by: "annotation hvx.io/exempt",
      scope: "host-heat",
    });
    expect(exemptionOf(pod({ annotations: { "hvx.io/exempt": "yes" } }), policy)).to.equal(undefined);
    expect(exemptionOf(pod(), policy)).to.equal(undefined);
  });

  it("given annotationNamespaces, honours the annotation only in matching namespaces; [] never", () => {
    const annotated = (namespace: string) => pod({ namespace, annotations: { "hvx.io/exempt": "true" } });
    expect(exemptionOf(annotated("team-a"), { ...policy, annotationNamespaces: ["team-*"] })?.scope).to.equal("host-heat");
    expect(exemptionOf(annotated("payments"), { ...policy, annotationNamespaces: ["team-*"] })).to.equal(undefined);
    expect(exemptionOf(annotated("payments"), { ...policy, annotationNamespaces: [] })).to.equal(undefined);
    expect(exemptionOf(annotated("payments"), { ...policy, annotationNamespaces: undefined }), "unset: everywhere").to.not.equal(undefined);
  });
});

describe("namespaceMatches", () => {
  const cases: Array<[string, string, boolean]> = [
    ["*", "anything", true],
    ["team-*", "team-a", true],
    ["team-*", "team-", true],
    ["team-*", "teams", false],
    ["*-prod", "shop-prod", true],
    ["shop", "shop", true],
    ["shop", "shop-2", false],
    ["a.b", "axb", false],
  ];
  for (const [pattern, ns, want] of cases)
    it(`${pattern} ${want ? "matches" : "does not match"} ${ns}`, () => expect(namespaceMatches([pattern], ns)).to.equal(want));
});
