import { expect } from "chai";
import { parseXml } from "../../src/vsphere/soap-envelope.js";
import { toEntityMetric, toSoapSpec } from "../../src/vsphere/soap-perf.js";
import { buildSoapRequest } from "../../src/vsphere/soap-envelope.js";

const metric = (inner: string) =>
  parseXml(
    `<returnval xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="PerfEntityMetric"><entity type="VirtualMachine">vm-54</entity>${inner}</returnval>`,
  );

describe("toEntityMetric", () => {
  it("given samples newest first (vcsim), returns them oldest first with each series reordered alike", () => {
    const el = metric(
      "<sampleInfo><timestamp>2026-12-01T17:50:54Z</timestamp><interval>20</interval></sampleInfo>" +
        "<sampleInfo><timestamp>2026-12-01T17:50:34Z</timestamp><interval>20</interval></sampleInfo>" +
        '<value xsi:type="PerfMetricIntSeries"><id><counterId>12</counterId><instance></instance></id><value>14389</value><value>10544</value></value>',
    );
    expect(toEntityMetric(el)).to.deep.equal({
      entity: { type: "VirtualMachine", value: "vm-54" },
      sampleInfo: [
        { timestamp: "2026-12-01T17:50:34Z", interval: 20 },
        { timestamp: "2026-12-01T17:50:54Z", interval: 20 },
      ],
      value: [{ id: { counterId: 12, instance: "" }, value: [10544, 14389] }],
    });
  });

  it("given a series vcsim left empty (its zero values dropped), returns an empty series: unknown, never 0", () => {
    const el = metric(
      "<sampleInfo><timestamp>2026-12-01T17:50:54Z</timestamp><interval>20</interval></sampleInfo>" +
        '<value xsi:type="PerfMetricIntSeries"><id><counterId>90</counterId><instance></instance></id></value>',
    );
    expect(toEntityMetric(el)?.value).to.deep.equal([{ id: { counterId: 90, instance: "" }, value: [] }]);
  });

  it("given vCenter's -1 (no data) and per-instance series, keeps them as they are for the sample index to judge", () => {
    const el = metric(
      "<sampleInfo><timestamp>2026-12-01T17:50:00Z</timestamp><interval>20</interval></sampleInfo>" +
        '<value xsi:type="PerfMetricIntSeries"><id><counterId>7</counterId><instance>0</instance></id><value>-1</value></value>',
    );
    expect(toEntityMetric(el)?.value).to.deep.equal([{ id: { counterId: 7, instance: "0" }, value: [-1] }]);
  });

  it("given no entity, returns undefined", () => {
    expect(toEntityMetric(parseXml("<returnval><sampleInfo/></returnval>"))).to.equal(undefined);
  });
});

describe("toSoapSpec", () => {
  it("given a real-time spec, writes the WSDL order: entity, maxSample, metricId, intervalId", () => {
    const spec = toSoapSpec({
      _typeName: "PerfQuerySpec",
      entity: { _typeName: "ManagedObjectReference", type: "HostSystem", value: "host-21" },
      metricId: [{ _typeName: "PerfMetricId", counterId: 12, instance: "" }],
      intervalId: 20,
      maxSample: 1,
    });
    const xml = buildSoapRequest("QueryPerf", { type: "PerformanceManager", value: "PerfMgr" }, [["querySpec", [spec]]]);
    expect(xml).to.include(
      '<querySpec><entity type="HostSystem">host-21</entity><maxSample>1</maxSample>' +
        "<metricId><counterId>12</counterId><instance></instance></metricId><intervalId>20</intervalId></querySpec>",
    );
  });

  it("given a historical spec, writes startTime and endTime before metricId", () => {
    const spec = toSoapSpec({
      _typeName: "PerfQuerySpec",
      entity: { _typeName: "ManagedObjectReference", type: "HostSystem", value: "host-21" },
      metricId: [],
      intervalId: 300,
      startTime: "2026-12-01T10:00:00Z",
      endTime: "2026-12-01T11:00:00Z",
    });
    const xml = buildSoapRequest("QueryPerf", { type: "PerformanceManager", value: "PerfMgr" }, [["querySpec", [spec]]]);
    expect(xml).to.include(
      '<entity type="HostSystem">host-21</entity><startTime>2026-12-01T10:00:00Z</startTime><endTime>2026-12-01T11:00:00Z</endTime><intervalId>300</intervalId>',
    );
  });
});
