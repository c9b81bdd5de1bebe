import { expect } from "chai";
import { readFileSync } from "node:fs";
import { bestHost, candidateWindow, passedOnly } from "../../bench/closed-loop.js";
import { FreshPods, podNameSuffix, podUid } from "../../bench/fresh-pods.js";
import { mulberry32 } from "../../src/random/prng.js";

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
    { name: "given no score, returns undefined", scores: [], want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(bestHost(c.scores)).to.equal(c.want));

  it("given equal top scores, picks each of them about as often (kube-scheduler's selectHost), never a lower one", () => {
    const scores = ["a", "b", "c"].map((Host) => ({ Host, Score: 7 })).concat([{ Host: "low", Score: 6 }]);
    const random = mulberry32(7);
    const picks = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const host = bestHost(scores, random)!;
      picks.set(host, (picks.get(host) ?? 0) + 1);
    }
    expect([...picks.keys()].sort()).to.deep.equal(["a", "b", "c"]);
    for (const n of picks.values()) expect(n).to.be.within(850, 1150);
  });
});

describe("passedOnly", () => {
  it("given a cache-mode filter answer, returns the filter's arguments with only the passing NodeNames", () => {
    const args = JSON.stringify({ Pod: templatePod, Nodes: null, NodeNames: ["a", "b", "c"] });
    const next = JSON.parse(passedOnly(args, JSON.stringify({ NodeNames: ["a", "c"], FailedNodes: { b: "hot" }, Error: "" })));
    expect(next).to.deep.equal({ Pod: templatePod, Nodes: null, NodeNames: ["a", "c"] });
  });

  it("given a Nodes-mode filter answer, returns the passing Node objects", () => {
    const node = (name: string) => ({ metadata: { name } });
    const args = JSON.stringify({ Pod: templatePod, Nodes: { items: [node("a"), node("b")] }, NodeNames: null });
    const next = JSON.parse(passedOnly(args, JSON.stringify({ Nodes: { items: [node("b")] }, FailedNodes: { a: "hot" } })));
    expect(next.Nodes.items).to.deep.equal([node("b")]);
    expect(next.NodeNames).to.equal(null);
  });

  it("given every node rejected, returns no candidates", () => {
    const args = JSON.stringify({ Pod: templatePod, Nodes: null, NodeNames: ["a"] });
    expect(JSON.parse(passedOnly(args, JSON.stringify({ NodeNames: null, FailedNodes: { a: "hot" } }))).NodeNames).to.deep.equal([]);
  });
});

describe("candidateWindow", () => {
  const w = { prefix: "node-", nodes: 5000, stride: 7, size: 500 };
  it("given the first pod, returns the nodes of the first window, in the list's order", () => {
    expect(candidateWindow(w, 0).slice(0, 3)).to.deep.equal(["node-0", "node-7", "node-14"]);
  });

  it("given as many pods as windows, visits every node once, then starts again", () => {
    const seen = Array.from({ length: 10 }, (_, pod) => candidateWindow(w, pod)).flat();
    expect(new Set(seen).size).to.equal(5000);
    expect(candidateWindow(w, 10)).to.deep.equal(candidateWindow(w, 0));
  });

  it("given fewer nodes than the window, returns each node once", () => {
    expect(candidateWindow({ prefix: "n", nodes: 3, stride: 2, size: 5 }, 1))
      .to.have.members(["n0", "n1", "n2"])
      .and.to.have.length(3);
  });
});
