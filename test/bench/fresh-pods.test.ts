import { expect } from "chai";
import { readFileSync } from "node:fs";
import { bestHost } from "../../bench/closed-loop.js";
import { FreshPods, podNameSuffix, podUid } from "../../bench/fresh-pods.js";

const template = readFileSync(new URL("../../../test/fixtures/wire/filter-args-nodenames.json", import.meta.url), "utf8");
const templatePod = JSON.parse(template).Pod;

describe("podNameSuffix / podUid", () => {
  const cases: Array<{ name: string; index: number; suffix: string }> = [
    // base 27 over "bcdfghjklmnpqrstvwxz2456789", padded with "b" (0) to 5 characters
    { name: "given 0, returns five zero digits", index: 0, suffix: "bbbbb" },
    { name: "given 1, returns the second character last", index: 1, suffix: "bbbbc" },
    // 28 = 1 x 27 + 1
    { name: "given 28, carries into the second digit", index: 28, suffix: "bbbcc" },
    // 27^5 = 14 348 907 needs a sixth digit
    { name: "given 27^5, returns six characters", index: 27 ** 5, suffix: "cbbbbb" },
  ];
  for (const c of cases) it(c.name, () => expect(podNameSuffix(c.index)).to.equal(c.suffix));

  it("given 20 000 indices across rounds, returns as many distinct suffixes and uids, all valid DNS labels and UUID-shaped", () => {
    const indices = Array.from({ length: 20_000 }, (_, i) => i * 37 + (i % 3) * 1_000_000);
    const suffixes = new Set(indices.map(podNameSuffix));
    const uids = new Set(indices.map(podUid));
    expect(new Set(indices).size).to.equal(suffixes.size);
    expect(uids.size).to.equal(suffixes.size);
    expect([...suffixes].filter((s) => !/^[a-z0-9]{5,}$/.test(s))).to.deep.equal([]);
    expect([...uids].filter((u) => !/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/.test(u))).to.deep.equal([]);
  });

  it("given a negative or fractional index, throws", () => {
    expect(() => podNameSuffix(-1)).to.throw(RangeError);
    expect(() => podUid(1.5)).to.throw(RangeError);
  });
});

describe("FreshPods", () => {
  const pods = new FreshPods(template);

  it("given two indices, returns two pods of the template's ReplicaSet with distinct names and uids", () => {
    const [a, b] = [pods.at(0), pods.at(1)];
    expect(a.name).to.not.equal(b.name);
    expect(a.uid).to.not.equal(b.uid);
    for (const p of [a, b]) {
      expect(p.name.startsWith(templatePod.metadata.generateName)).to.equal(true);
      expect(p.namespace).to.equal(templatePod.metadata.namespace);
    }
  });

  it("given an index, returns ExtenderArgs equal to the template but for the Pod's name and uid", () => {
    const p = pods.at(42);
    const args = JSON.parse(p.argsJson);
    expect(args.Pod.metadata.name).to.equal(p.name);
    expect(args.Pod.metadata.uid).to.equal(p.uid);
    const want = JSON.parse(template);
    want.Pod.metadata.name = p.name;
    want.Pod.metadata.uid = p.uid;
    expect(args).to.deep.equal(want);
  });

  it("given an index, returns the same pod pending, as a v1 Pod without resourceVersion or node", () => {
    const p = pods.at(7);
    const pod = JSON.parse(p.podJson);
    expect(pod).to.include({ apiVersion: "v1", kind: "Pod" });
    expect(pod.metadata).to.include({ name: p.name, uid: p.uid, namespace: p.namespace });
    expect(pod.metadata).to.not.have.property("resourceVersion");
    expect(pod.metadata.ownerReferences).to.deep.equal(templatePod.metadata.ownerReferences);
    expect(pod.spec.containers).to.deep.equal(templatePod.spec.containers);
    expect(pod.spec).to.not.have.property("nodeName");
  });

  it("given a template pod without a name, throws a clear error", () => {
    expect(() => new FreshPods(JSON.stringify({ Pod: { metadata: {} }, NodeNames: [] }))).to.throw(/metadata.name/);
  });
});

describe("bestHost", () => {
  const cases: Array<{ name: string; scores: Array<{ Host: string; Score: number }>; want: string | undefined }> = [
    {
      name: "given distinct scores, returns the highest",
      scores: [
        { Host: "a", Score: 3 },
        { Host: "b", Score: 9 },
      ],
      want: "b",
    },
    {
      name: "given equal scores, returns the first",
      scores: [
        { Host: "a", Score: 5 },
        { Host: "b", Score: 5 },
      ],
      want: "a",
    },
    { name: "given no score, returns undefined", scores: [], want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(bestHost(c.scores)).to.equal(c.want));
});
