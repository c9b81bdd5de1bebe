import { expect } from "chai";
import { podDemand, type ContainerResourceSpec, type PodResourceSpec } from "../../src/placement/pod-demand.js";

const Mi = 1024 * 1024;
const Gi = 1024 * Mi;
const defaults = { cpuMilli: 100, memoryBytes: 128 * Mi };

function c(
  name: string,
  requests?: Record<string, string>,
  limits?: Record<string, string>,
  restartPolicy?: string,
): ContainerResourceSpec {
  const resources: { requests?: Record<string, string>; limits?: Record<string, string> } = {};
  if (requests) resources.requests = requests;
  if (limits) resources.limits = limits;
  return restartPolicy ? { name, resources, restartPolicy } : { name, resources };
}

interface Case {
  name: string;
  spec: PodResourceSpec;
  annotations?: Record<string, string>;
  requests: [number, number];
  limits: [number, number];
  expected: [number, number];
  problems?: number;
}

const cases: Case[] = [
  {
    name: "given one container with requests and limits, returns them",
    spec: { containers: [c("app", { cpu: "500m", memory: "1Gi" }, { cpu: "2", memory: "2Gi" })] },
    requests: [500, Gi],
    limits: [2000, 2 * Gi],
    expected: [500, Gi],
  },
  {
    // app 250 + 250 = 500; sidecar 100 joins the sum: 600. init "migrate" 1000 + sidecars before it (0) = 1000 -> max 1000
    name: "given a big regular init container, its request wins",
    spec: {
      containers: [c("a", { cpu: "250m" }), c("b", { cpu: "250m" })],
      initContainers: [c("migrate", { cpu: "1" }), c("proxy", { cpu: "100m" }, undefined, "Always")],
    },
    requests: [1000, 0],
    limits: [1000, 0],
    expected: [1000, defaults.memoryBytes],
  },
  {
    // sidecar 300 first; init 200 + 300 = 500; sum app 400 + sidecar 300 = 700 -> 700
    name: "given a sidecar declared before an init container, the sidecar counts in both terms",
    spec: {
      containers: [c("app", { cpu: "400m" })],
      initContainers: [c("proxy", { cpu: "300m" }, undefined, "Always"), c("init", { cpu: "200m" })],
    },
    requests: [700, 0],
    limits: [700, 0],
    expected: [700, defaults.memoryBytes],
  },
  {
    // init 600 + sidecar-before 300 = 900 > app 400 + 300 = 700
    name: "given init request plus earlier sidecars above the app sum, that wins",
    spec: {
      containers: [c("app", { cpu: "400m" })],
      initContainers: [c("proxy", { cpu: "300m" }, undefined, "Always"), c("init", { cpu: "600m" })],
    },
    requests: [900, 0],
    limits: [900, 0],
    expected: [900, defaults.memoryBytes],
  },
  {
    // 500 + overhead 250 = 750; memory 1Gi + 120Mi
    name: "given pod overhead, adds it to requests and limits",
    spec: { containers: [c("app", { cpu: "500m", memory: "1Gi" })], overhead: { cpu: "250m", memory: "120Mi" } },
    requests: [750, Gi + 120 * Mi],
    limits: [750, Gi + 120 * Mi],
    expected: [750, Gi + 120 * Mi],
  },
  {
    name: "given limits without requests, requests default to the limits",
    spec: { containers: [c("app", undefined, { cpu: "1", memory: "512Mi" })] },
    requests: [1000, 512 * Mi],
    limits: [1000, 512 * Mi],
    expected: [1000, 512 * Mi],
  },
  {
    // a: no limit -> counts its request 200; b: limit 1000; c: nothing -> 0
    name: "given a container without a limit, counts its request in the limit sum",
    spec: { containers: [c("a", { cpu: "200m" }), c("b", { cpu: "100m" }, { cpu: "1" }), c("c")] },
    requests: [300, 0],
    limits: [1200, 0],
    expected: [300, defaults.memoryBytes],
  },
  {
    name: "given nothing declared, expected demand is the defaults",
    spec: { containers: [c("app")] },
    requests: [0, 0],
    limits: [0, 0],
    expected: [100, 128 * Mi],
  },
  {
    // originals app 2 cpu / 4Gi replace the scaled 1 cpu / 2Gi
    name: "given the original-requests annotation, expected demand uses the originals",
    spec: { containers: [c("app", { cpu: "1", memory: "2Gi" })] },
    annotations: { "hvx.io/original-requests": '{"containers":{"app":{"cpu":"2","memory":"4Gi"}}}' },
    requests: [1000, 2 * Gi],
    limits: [1000, 2 * Gi],
    expected: [2000, 4 * Gi],
  },
  {
    // app original 1000; side (no original) keeps its request 100; init original 3000 > 1100
    name: "given originals for some containers only, the others keep their requests",
    spec: {
      containers: [c("app", { cpu: "500m" }), c("side", { cpu: "100m" })],
      initContainers: [c("init", { cpu: "200m" })],
    },
    annotations: { "hvx.io/original-requests": '{"containers":{"app":{"cpu":"1"}},"initContainers":{"init":{"cpu":"3"}}}' },
    requests: [600, 0],
    limits: [600, 0],
    expected: [3000, defaults.memoryBytes],
  },
  {
    name: "given an invalid annotation, ignores it and reports a problem",
    spec: { containers: [c("app", { cpu: "1" })] },
    annotations: { "hvx.io/original-requests": "{not json" },
    requests: [1000, 0],
    limits: [1000, 0],
    expected: [1000, defaults.memoryBytes],
    problems: 1,
  },
  {
    name: "given an unparseable quantity, counts it as absent and reports it",
    spec: { containers: [c("app", { cpu: "lots", memory: "1Gi" }, { cpu: "2" })] },
    requests: [2000, Gi],
    limits: [2000, Gi],
    expected: [2000, Gi],
    problems: 1,
  },
  {
    name: "given no spec at all, returns zeros and defaults",
    spec: {},
    requests: [0, 0],
    limits: [0, 0],
    expected: [100, 128 * Mi],
  },
];

describe("podDemand", () => {
  for (const t of cases) {
    it(t.name, () => {
      const d = podDemand(t.spec, t.annotations, defaults);
      expect([d.requests.cpuMilli, d.requests.memoryBytes], "requests").to.deep.equal(t.requests);
      expect([d.limits.cpuMilli, d.limits.memoryBytes], "limits").to.deep.equal(t.limits);
      expect([d.expectedDemand.cpuMilli, d.expectedDemand.memoryBytes], "expected").to.deep.equal(t.expected);
      expect(d.problems, "problems").to.have.length(t.problems ?? 0);
    });
  }
});

describe("podDemand originalRequests (the oversell ledger's 'as written')", () => {
  const ann = (text: string) => ({ "hvx.io/original-requests": text });
  const rows: Array<{ name: string; spec: PodResourceSpec; annotations?: Record<string, string>; want: [number, number] | undefined }> = [
    { name: "given no annotation, undefined (not scaled)", spec: { containers: [c("app", { cpu: "1", memory: "2Gi" })] }, want: undefined },
    // originals 2 cpu / 4Gi as written
    {
      name: "given originals for both resources, those",
      spec: { containers: [c("app", { cpu: "1", memory: "2Gi" })] },
      annotations: ann('{"containers":{"app":{"cpu":"2","memory":"4Gi"}}}'),
      want: [2000, 4 * Gi],
    },
    // cpu original 2; memory had none: it keeps its current request 2Gi (not the expected-demand default)
    {
      name: "given an original for cpu only, memory keeps its request",
      spec: { containers: [c("app", { cpu: "1", memory: "2Gi" })] },
      annotations: ann('{"containers":{"app":{"cpu":"2"}}}'),
      want: [2000, 2 * Gi],
    },
    {
      name: "given an invalid annotation, undefined",
      spec: { containers: [c("app", { cpu: "1" })] },
      annotations: ann("{not json"),
      want: undefined,
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = podDemand(r.spec, r.annotations, defaults);
      expect(d.originalRequests && [d.originalRequests.cpuMilli, d.originalRequests.memoryBytes]).to.deep.equal(r.want);
    });
  }
});
