export { renderExposition, type ExporterFlavour } from "./render-exposition.js";
export { startFakeExporter, type FakeExporterHandle, type FakeExporterOptions } from "./start-fake-exporter.js";
export { startPrometheus, prometheusBinary, type PrometheusHandle } from "./start-prometheus.js";
export { spawnExporter, type ExporterProcess } from "./serve-exporter.js";
