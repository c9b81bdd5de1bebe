import { expect } from "chai";
import { Registry } from "prom-client";
import { registerCertificateExpiryGauge } from "../../src/observability/certificate-expiry-gauge.js";

describe("registerCertificateExpiryGauge", () => {
  it("given TLS and plain listeners, exports the current notAfter of the TLS ones only, read at scrape time", async () => {
    const registry = new Registry();
    const watch = registerCertificateExpiryGauge(registry);
    let extenderNotAfterMs = Date.parse("2027-01-01T00:00:00Z");
    watch({ listener: "extender", notAfterMs: () => extenderNotAfterMs });
    watch({ listener: "admission", notAfterMs: () => undefined });
    const read = async () =>
      (await registry.getSingleMetric("hvx_tls_certificate_expiry_timestamp_seconds")!.get()).values.map((v) => ({
        labels: { ...v.labels },
        value: v.value,
      }));
    expect(await read()).to.deep.equal([{ labels: { listener: "extender" }, value: 1798761600 }]);
    extenderNotAfterMs = Date.parse("2027-02-01T00:00:00Z");
    expect(await read()).to.deep.equal([{ labels: { listener: "extender" }, value: 1801440000 }]);
  });
});
