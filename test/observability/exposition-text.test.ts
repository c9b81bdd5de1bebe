import { expect } from "chai";
import { Gauge, Registry } from "prom-client";
import { escapeLabelValue, gaugeHeader, sampleLine, valueText } from "../../src/observability/exposition-text.js";

/** What prom-client writes for one gauge with one series: the reference hvx's own text must match. */
async function promClientText(help: string, labels: Record<string, string>, value: number): Promise<string> {
  const registry = new Registry();
  new Gauge({ name: "x_gauge", help, labelNames: Object.keys(labels), registers: [registry] }).set(labels, value);
  return registry.metrics();
}

describe("exposition text", () => {
  const values = ["plain", 'say "hi"', "back\\slash", "two\nlines", '\\"\n\\\\n mixed', "", "ünïcode ✓", "trailing\\"];
  for (const value of values) {
    it(`writes the label value ${JSON.stringify(value)} as prom-client does`, async () => {
      const labels = { node: value, host: `h-${value}` };
      const line = sampleLine("x_gauge", Object.entries(labels), 1);
      expect(await promClientText("help", labels, 1)).to.equal(`${gaugeHeader("x_gauge", "help")}${line}`);
    });
  }

  for (const value of [1, 0, 0.5, -3, 1e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    it(`writes the value ${value} as prom-client does`, async () => {
      expect(await promClientText("help", { a: "b" }, value)).to.equal(
        `${gaugeHeader("x_gauge", "help")}x_gauge{a="b"} ${valueText(value)}\n`,
      );
    });
  }

  it("escapes HELP text as prom-client does (backslash, newline; a quote stays)", async () => {
    const help = 'a "quoted" \\ help\nover two lines';
    expect(await promClientText(help, {}, 2)).to.equal(`${gaugeHeader("x_gauge", help)}x_gauge 2\n`);
  });

  it("leaves a value without anything to escape as the same string", () => {
    const value = "node-0001.example.com";
    expect(escapeLabelValue(value)).to.equal(value);
  });
});
