export { buildExporterInventory } from "./build-exporter-inventory.js";
export { buildPrometheusSourceParts, type PrometheusSourceConfig } from "./build-prometheus-source-parts.js";
export { buildTelegrafInventory, toPolledHosts } from "./build-telegraf-inventory.js";
export { EXPORTER, seriesFor, seriesQueries, TELEGRAF, type Flavour, type SeriesSpec } from "./flavour-series.js";
export { parseQueryResponse, type PromSample } from "./parse-query-response.js";
export { PrometheusClient } from "./prometheus-client.js";
export { PrometheusPoller, type PrometheusPollerOptions, type PrometheusSourceParts } from "./prometheus-poller.js";
export { PrometheusQueryError } from "./prometheus-query-error.js";
export { querySeries, withSampleTimes, type Querier, type SeriesByName } from "./query-series.js";
