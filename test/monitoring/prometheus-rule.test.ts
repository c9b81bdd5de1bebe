import { expect } from "chai";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { EXTERNAL_METRICS, hvxExportedNames, metricNamesIn } from "./metric-names.js";
import { requirePromtool, runPromtool } from "./promtool.js";

const ROOT = process.cwd();
const RULE_FILE = join(ROOT, "manifests/overlays/monitoring/prometheusrule.yaml");
const UNIT_TESTS = join(ROOT, "test/monitoring/alerts-test.yaml");
const RUNBOOK = join(ROOT, "docs/runbook.md");

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface PrometheusRule {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
  spec: { groups: Array<{ name: string; rules: AlertRule[] }> };
}

const resource = parse(readFileSync(RULE_FILE, "utf8")) as PrometheusRule;
const alerts = resource.spec.groups.flatMap((g) => g.rules);

/** GitHub's heading anchors: lower case, spaces to dashes, punctuation dropped. */
function anchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, "")
        .replace(/ /g, "-"),
    ),
  );
}

describe("PrometheusRule (manifests/overlays/monitoring/prometheusrule.yaml)", () => {
  it("is a monitoring.coreos.com/v1 PrometheusRule in hvx-system", () => {
    expect(resource.apiVersion).to.equal("monitoring.coreos.com/v1");
    expect(resource.kind).to.equal("PrometheusRule");
    expect(resource.metadata.namespace).to.equal("hvx-system");
  });

  it("covers every alert the issues ask for", () => {
    expect(alerts.map((a) => a.alert)).to.include.members([
      "HvxVcenterPollsFailing",
      "HvxHostDataStale",
      "HvxExtenderErrors",
      "HvxExtenderSlow",
      "HvxAdmissionErrors",
      "HvxAdmissionSlow",
      "HvxManyHostsHot",
      "HvxClusterCacheStale",
      "HvxCertificateExpiringSoon",
      "HvxThrottlingOnCpuReadyHost",
      "HvxBalloonUnderMemoryPressure",
      "HvxRebalancerEvicting",
    ]);
  });

  const runbookAnchors = anchors(readFileSync(RUNBOOK, "utf8"));
  for (const a of alerts) {
    it(`${a.alert}: has a severity, a summary, a description and a runbook_url to its own section of docs/runbook.md`, () => {
      expect(a.labels?.severity, "severity").to.be.oneOf(["info", "warning", "critical"]);
      expect(a.annotations?.summary, "summary").to.be.a("string").and.not.be.empty;
      expect(a.annotations?.description, "description").to.be.a("string").and.not.be.empty;
      const url = a.annotations?.runbook_url ?? "";
      const m = /\/docs\/runbook\.md#([a-z0-9-]+)$/.exec(url);
      expect(m, `runbook_url ${url}`).to.not.equal(null);
      expect(m![1]).to.equal(a.alert.toLowerCase());
      expect(runbookAnchors.has(m![1]!), `docs/runbook.md has a "## ${a.alert}" section`).to.equal(true);
    });
  }

  it("names only metrics hvx registers in src, prom-client's defaults, or the documented external ones", async () => {
    const known = await hvxExportedNames(join(ROOT, "src"));
    const unknown = alerts.flatMap((a) =>
      [...metricNamesIn(a.expr)].filter((n) => !known.has(n) && !(n in EXTERNAL_METRICS)).map((n) => `${a.alert}: ${n}`),
    );
    expect(unknown).to.deep.equal([]);
  });

  it("has a promtool unit test for every alert, with a firing and a not-firing evaluation", () => {
    const unit = parse(readFileSync(UNIT_TESTS, "utf8")) as {
      tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> }>;
    };
    const evals = unit.tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const a of alerts) {
      const mine = evals.filter((e) => e.alertname === a.alert);
      expect(
        mine.some((e) => (e.exp_alerts ?? []).length > 0),
        `${a.alert} fires somewhere`,
      ).to.equal(true);
      expect(
        mine.some((e) => (e.exp_alerts ?? []).length === 0),
        `${a.alert} does not fire somewhere`,
      ).to.equal(true);
    }
  });

  describe("with promtool", function () {
    let promtool: string | undefined;
    let dir: string | undefined;
    before(function () {
      promtool = requirePromtool(this);
      dir = mkdtempSync(join(tmpdir(), "hvx-rules-"));
      // A PrometheusRule's spec is a Prometheus rule file.
      writeFileSync(join(dir!, "rules.yaml"), stringify(resource.spec));
      copyFileSync(UNIT_TESTS, join(dir, "alerts-test.yaml"));
    });
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("promtool check rules accepts the rules", () => {
      const r = runPromtool(promtool!, ["check", "rules", "rules.yaml"], dir!);
      expect(r.status, r.output).to.equal(0);
      expect(r.output).to.include(`SUCCESS: ${alerts.length} rules found`);
    });

    it("promtool test rules passes test/monitoring/alerts-test.yaml", () => {
      const r = runPromtool(promtool!, ["test", "rules", "alerts-test.yaml"], dir!);
      expect(r.status, r.output).to.equal(0);
    });

    it("promtool test rules fails when an alert's threshold is loosened (the unit tests can fail)", () => {
      // Exactly a quarter of the hosts hot must not fire; with >= it does.
      const loosened = stringify(resource.spec).replace("> 0.25\n", ">= 0.25\n");
      expect(loosened).to.not.equal(stringify(resource.spec));
      writeFileSync(join(dir!, "rules.yaml"), loosened);
      try {
        const r = runPromtool(promtool!, ["test", "rules", "alerts-test.yaml"], dir!);
        expect(r.status).to.equal(1);
        expect(r.output).to.include("HvxManyHostsHot");
      } finally {
        writeFileSync(join(dir!, "rules.yaml"), stringify(resource.spec));
      }
    });
  });
});
