import { expect } from "chai";
import { exemptionOf, namespaceMatches, type PodMeta } from "../../src/placement/exemption.js";
import { toPodMeta } from "../../src/protocol/parse-extender-args.js";
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
    expect(exemptionOf(pod({ ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds" }), policy)).to.deep.equal({
      by: "DaemonSet pod",
      scope: "all",
    });
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

  it('given hvx.io/exempt: "true" where annotationNamespaces lists ["*"], exempts it from the host-heat rules only', () => {
    const policy = { ...DEFAULT_POLICY.exempt, annotationNamespaces: ["*"] };
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

describe("exemptionOf, DaemonSet owners (the security review: a forged owner lifted every rule)", () => {
  const DS = { apiVersion: "apps/v1", kind: "DaemonSet", name: "agent", uid: "uid-agent", controller: true };
  const wirePod = (ownerReferences: object[]) => toPodMeta({ metadata: { namespace: "payments", name: "p", ownerReferences } });
  const known = new Set(["payments/uid-agent"]);
  const cases: Array<{ name: string; owners: object[]; daemonSets?: ReadonlySet<string>; exempt: boolean }> = [
    { name: "a DaemonSet reference without controller: true", owners: [{ ...DS, controller: undefined }], exempt: false },
    { name: "a DaemonSet reference with controller: false", owners: [{ ...DS, controller: false }], exempt: false },
    {
      name: "a DaemonSet reference next to a ReplicaSet controller",
      owners: [
        { ...DS, controller: false },
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: "rs", uid: "u2", controller: true },
      ],
      exempt: false,
    },
    {
      name: "a DaemonSet controller of apiVersion extensions/v1beta1",
      owners: [{ ...DS, apiVersion: "extensions/v1beta1" }],
      exempt: false,
    },
    { name: "an apps/v1 DaemonSet controller without a uid", owners: [{ ...DS, uid: "" }], exempt: false },
    { name: "an apps/v1 DaemonSet controller, no cluster view", owners: [DS], exempt: true },
    { name: "an apps/v1 DaemonSet controller the cluster view knows", owners: [DS], daemonSets: known, exempt: true },
    { name: "a DaemonSet uid the cluster view does not know", owners: [{ ...DS, uid: "forged" }], daemonSets: known, exempt: false },
    {
      name: "a DaemonSet uid the cluster view knows in another namespace",
      owners: [DS],
      daemonSets: new Set(["kube-system/uid-agent"]),
      exempt: false,
    },
  ];
  for (const c of cases)
    it(`given ${c.name}, returns ${c.exempt ? "exempt from every rule" : "not exempt"}`, () => {
      const got = exemptionOf(wirePod(c.owners), policy, c.daemonSets);
      expect(got).to.deep.equal(c.exempt ? { by: "DaemonSet pod", scope: "all" } : undefined);
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
