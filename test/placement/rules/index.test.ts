import { expect } from "chai";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  HOST_METRIC_RULES,
  isOn,
  judgeMemoryState,
  judgeValue,
  rejectLevel,
  ruleNameOf,
  VM_METRIC_RULES,
  warnLevel,
  type HostRule,
  type VmRule,
} from "../../../src/placement/rules/index.js";
import { PROFILE_METRICS } from "../../../src/model/host-forecast.js";
import type { ThresholdPolicy } from "../../../src/placement/policy.js";
import { DEFAULT_POLICY } from "../../fixtures/policy.js";

const t = DEFAULT_POLICY.thresholds;

/** Each rule as declared, its levels under the default thresholds, and one reading on each side of them. */
const cases: Array<{
  name: string;
  rule: HostRule | VmRule;
  /** Thresholds of the case; absent: the defaults. */
  t?: ThresholdPolicy;
  want: {
    metric: string;
    field: string;
    unit: string;
    reject: number;
    warn: number | undefined;
    projectedBy?: "cpu" | "memory";
    relievedByEviction?: boolean;
    predicted?: boolean;
    gauge?: string;
  };
  /** [value, what it does]: "reject", "warn" or undefined (nothing). */
  readings: Array<[number, "reject" | "warn" | undefined]>;
}> = [
  {
    name: "cpu-ready",
    rule: HOST_METRIC_RULES[0]!,
    // warn is its own key: cpuReadyWarnPercent 5
    want: {
      metric: "cpu ready",
      field: "cpuReadyPercent",
      unit: "%",
      reject: 10,
      warn: 5,
      relievedByEviction: true,
      predicted: true,
      gauge: "hvx_host_cpu_ready_percent",
    },
    readings: [
      [4.9, undefined],
      [5, "warn"],
      [10, "reject"],
    ],
  },
  {
    name: "cpu-usage",
    rule: HOST_METRIC_RULES[1]!,
    // warn = 0.9 x 90 = 81
    want: {
      metric: "cpu usage",
      field: "cpuUsagePercent",
      unit: "%",
      reject: 90,
      warn: 81,
      projectedBy: "cpu",
      relievedByEviction: false,
      predicted: true,
      gauge: "hvx_host_cpu_usage_percent",
    },
    readings: [
      [80.9, undefined],
      [81, "warn"],
      [90, "reject"],
    ],
  },
  {
    name: "memory-usage",
    rule: HOST_METRIC_RULES[2]!,
    // warn = 0.9 x 95 = 85.5
    want: {
      metric: "memory usage",
      field: "memUsagePercent",
      unit: "%",
      reject: 95,
      warn: 85.5,
      projectedBy: "memory",
      relievedByEviction: true,
      predicted: true,
      gauge: "hvx_host_memory_usage_percent",
    },
    readings: [
      [85.4, undefined],
      [85.5, "warn"],
      [95, "reject"],
    ],
  },
  {
    name: "balloon",
    rule: HOST_METRIC_RULES[3]!,
    // warn = 0.9 x 1 = 0.9
    want: {
      metric: "balloon",
      field: "balloonPercent",
      unit: "%",
      reject: 1,
      warn: 0.9,
      relievedByEviction: true,
      predicted: true,
      gauge: "hvx_host_balloon_percent",
    },
    readings: [
      [0.8, undefined],
      [0.9, "warn"],
      [1, "reject"],
    ],
  },
  {
    name: "swap-in",
    rule: HOST_METRIC_RULES[4]!,
    want: {
      metric: "swap-in rate",
      field: "swapInKBps",
      unit: "KB/s",
      reject: 1,
      warn: 0.9,
      relievedByEviction: true,
      predicted: true,
      gauge: "hvx_host_swapin_kbps",
    },
    readings: [
      [0, undefined],
      [0.95, "warn"],
      [1, "reject"],
    ],
  },
  {
    name: "cpu-costop",
    rule: HOST_METRIC_RULES[5]!,
    // off by default; set to 3: warn = 0.9 x 3 = 2.7
    t: { ...t, cpuCostopPercent: 3 },
    want: {
      metric: "cpu co-stop",
      field: "cpuCostopPercent",
      unit: "%",
      reject: 3,
      warn: 2.7,
      relievedByEviction: true,
      predicted: false,
      gauge: "hvx_host_cpu_costop_percent",
    },
    readings: [
      [2.6, undefined],
      [2.7, "warn"],
      [3, "reject"],
    ],
  },
  {
    name: "vm-cpu-ready",
    rule: VM_METRIC_RULES[0]!,
    want: { metric: "cpu ready", field: "cpuReadyPercent", unit: "%", reject: 10, warn: 5 },
    readings: [
      [4.9, undefined],
      [5, "warn"],
      [10, "reject"],
    ],
  },
  {
    name: "vm-balloon",
    rule: VM_METRIC_RULES[1]!,
    // a fixed threshold: > 0 MiB rejects, no warn level
    want: { metric: "balloon", field: "balloonMiB", unit: "MiB", reject: 0, warn: undefined },
    readings: [
      [0, undefined],
      [0.1, "reject"],
    ],
  },
];

describe("metric rules (src/placement/rules)", () => {
  it("given the lists, declares every rule of the table, in judging order, and nothing else", () => {
    expect([...HOST_METRIC_RULES, ...VM_METRIC_RULES].map((r) => r.name)).to.deep.equal(cases.map((c) => c.name));
  });

  for (const c of cases) {
    it(`given ${c.name}, returns its reading, levels and flags`, () => {
      const r = c.rule;
      const t = c.t ?? DEFAULT_POLICY.thresholds;
      expect({ metric: r.metric, field: r.field, unit: r.unit }).to.deep.equal({
        metric: c.want.metric,
        field: c.want.field,
        unit: c.want.unit,
      });
      expect(rejectLevel(r, t), "reject").to.equal(c.want.reject);
      expect(warnLevel(r, t), "warn").to.equal(c.want.warn);
      if (r.scope === "host") {
        expect(r.projectedBy, "projectedBy").to.equal(c.want.projectedBy);
        expect(r.relievedByEviction, "relievedByEviction").to.equal(c.want.relievedByEviction);
        expect(r.predicted, "predicted").to.equal(c.want.predicted);
        expect(r.gauge?.name, "gauge").to.equal(c.want.gauge);
      }
      for (const [value, level] of c.readings) expect(judgeValue(r, value, t)?.level, `value ${value}`).to.equal(level);
      expect(judgeValue(r, undefined, t), "an unknown value").to.equal(undefined);
    });
  }

  it("given cpu-costop without its optional threshold (the default), is off: no levels, no reading fires", () => {
    const costop = HOST_METRIC_RULES[5]!;
    expect([isOn(costop, t), rejectLevel(costop, t), warnLevel(costop, t), judgeValue(costop, 100, t)]).to.deep.equal([
      false,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("given the predicted host rules, each reads a metric the load profiles keep (else prediction would skip it)", () => {
    const predicted = HOST_METRIC_RULES.filter((r) => r.predicted).map((r) => r.field);
    expect(predicted.filter((f) => !(PROFILE_METRICS as readonly string[]).includes(f))).to.deep.equal([]);
  });

  it("given a reason's scope and metric, returns the heat mark's rule name", () => {
    expect(ruleNameOf("host", "swap-in rate")).to.equal("swap-in");
    expect(ruleNameOf("host", "memory state")).to.equal("memory-state");
    expect(ruleNameOf("vm", "cpu ready")).to.equal("vm-cpu-ready");
    expect(ruleNameOf("vm", "swap-in rate")).to.equal(undefined);
  });

  it("given a memory state, rejects hard and low, warns on soft, says nothing otherwise", () => {
    expect(["high", "clear", "soft", "hard", "low", undefined].map((s) => judgeMemoryState(s as never))).to.deep.equal([
      undefined,
      undefined,
      "warn",
      "reject",
      "reject",
      undefined,
    ]);
  });

  it("given the rules folder, lists every rule file (a rule cannot be declared and forgotten)", () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), "../../../src/placement/rules");
    const files = readdirSync(dir)
      .filter((f) => f.endsWith(".js") && !["index.js", "metric-rule.js", "rule-levels.js", "memory-state.js"].includes(f))
      .map((f) => f.replace(/\.js$/, ""))
      .sort();
    expect(files).to.deep.equal(cases.map((c) => c.name).sort());
  });
});
