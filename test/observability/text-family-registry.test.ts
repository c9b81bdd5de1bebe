import { expect } from "chai";
import { Gauge, Registry, type OpenMetricsContentType, type RegistryContentType } from "prom-client";
import { TextFamilyRegistry, type TextFamily } from "../../src/observability/text-family-registry.js";

const family = (name: string, text: string): TextFamily => ({ name, render: () => text });
const A = '# HELP a_text A.\n# TYPE a_text gauge\na_text{k="v"} 1\n';
const B = "# HELP b_text B.\n# TYPE b_text gauge\nb_text 1\n";

function withGauge<R extends Registry<RegistryContentType>>(registry: R): R {
  new Gauge({ name: "own_gauge", help: "Own.", registers: [registry] }).set(3);
  return registry;
}

describe("TextFamilyRegistry", () => {
  it("without text families, writes exactly what prom-client writes", async () => {
    expect(await withGauge(new TextFamilyRegistry()).metrics()).to.equal(await withGauge(new Registry()).metrics());
  });

  it("writes its text families after prom-client's, each after a blank line, rendered at each scrape", async () => {
    const registry = withGauge(new TextFamilyRegistry());
    let renders = 0;
    registry.addTextFamily({ name: "a_text", render: () => (renders++, A) });
    registry.addTextFamily(family("b_text", B));
    const own = await withGauge(new Registry()).metrics();
    expect(await registry.metrics()).to.equal(`${own}\n${A}\n${B}`);
    await registry.metrics();
    expect(renders).to.equal(2);
  });

  it("in OpenMetrics, writes them before `# EOF`, without blank lines", async () => {
    const registry = new TextFamilyRegistry<OpenMetricsContentType>();
    registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    withGauge(registry);
    registry.addTextFamily(family("a_text", A));
    registry.addTextFamily(family("b_text", B));
    const plain = new Registry<OpenMetricsContentType>();
    plain.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    const own = await withGauge(plain).metrics();
    expect(own.endsWith("# EOF\n")).to.equal(true);
    expect(await registry.metrics()).to.equal(`${own.slice(0, -"# EOF\n".length)}${A}${B}# EOF\n`);
  });

  it("refuses a name twice, whether prom-client's or a text family's", () => {
    const registry = withGauge(new TextFamilyRegistry());
    registry.addTextFamily(family("a_text", A));
    expect(() => registry.addTextFamily(family("own_gauge", B))).to.throw("own_gauge has already been registered");
    expect(() => registry.addTextFamily(family("a_text", B))).to.throw("a_text has already been registered");
    expect(() => new Gauge({ name: "a_text", help: "Clash.", registers: [registry] })).to.throw("a_text has already been registered");
  });

  it("clear() drops the text families too", async () => {
    const registry = withGauge(new TextFamilyRegistry());
    registry.addTextFamily(family("a_text", A));
    registry.clear();
    expect(await registry.metrics()).to.equal(await new Registry().metrics());
  });
});
