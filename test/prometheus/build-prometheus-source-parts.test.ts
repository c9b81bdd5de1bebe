import { expect } from "chai";
import { Registry } from "prom-client";
import { configSchema } from "../../src/config/schema.js";
import { silentLogger } from "../../src/observability/logger.js";
import { buildPrometheusSourceParts } from "../../src/prometheus/build-prometheus-source-parts.js";
import { PrometheusQueryError } from "../../src/prometheus/prometheus-query-error.js";

describe("buildPrometheusSourceParts", () => {
  const cases: Array<{ name: string; config: Record<string, unknown>; message: RegExp }> = [
    {
      name: "given no prometheus.url, refuses with a config error",
      config: { prometheus: { flavour: "vmware_exporter" } },
      message: /prometheus\.url is required/,
    },
    {
      name: "given an unreadable prometheus.caFile, names the key and the error code",
      config: { prometheus: { url: "https://prom.example", flavour: "vmware_exporter", caFile: "/nonexistent/prom-ca.pem" } },
      message: /cannot read prometheus\.caFile \/nonexistent\/prom-ca\.pem: ENOENT/,
    },
    {
      name: "given telegraf and an unreadable vcenter.caFile, names that key",
      config: {
        prometheus: { url: "http://127.0.0.1:1", flavour: "telegraf" },
        vcenter: { url: "https://vc.example", username: "u", password: "p", caFile: "/nonexistent/vc-ca.pem" },
      },
      message: /cannot read vcenter\.caFile \/nonexistent\/vc-ca\.pem: ENOENT/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const config = configSchema.parse(c.config);
      const build = () =>
        buildPrometheusSourceParts({
          prometheus: config.prometheus,
          vcenter: config.vcenter,
          log: silentLogger(),
          registry: new Registry(),
        });
      expect(build).to.throw(PrometheusQueryError, c.message);
    });
  }

  it("given vmware_exporter, builds no vCenter inventory reader; given telegraf, builds one", () => {
    const exporter = configSchema.parse({ prometheus: { url: "http://127.0.0.1:1", flavour: "vmware_exporter" } });
    const telegraf = configSchema.parse({
      prometheus: { url: "http://127.0.0.1:1", flavour: "telegraf" },
      vcenter: { url: "http://127.0.0.1:1", username: "u", password: "p" },
    });
    const e = buildPrometheusSourceParts({
      prometheus: exporter.prometheus,
      vcenter: exporter.vcenter,
      log: silentLogger(),
      registry: new Registry(),
    });
    const t = buildPrometheusSourceParts({
      prometheus: telegraf.prometheus,
      vcenter: telegraf.vcenter,
      log: silentLogger(),
      registry: new Registry(),
    });
    expect(e.inventory).to.equal(undefined);
    expect(t.inventory).to.not.equal(undefined);
    e.querier.close?.();
    t.querier.close?.();
    return t.inventory!.close();
  });
});
