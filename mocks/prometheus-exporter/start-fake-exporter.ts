import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createControls, type MockVcenterControls } from "../vcenter/mock-controls.js";
import { createMockState } from "../vcenter/mock-state.js";
import { validateScenario } from "../vcenter/parse-scenario.js";
import type { Scenario } from "../vcenter/scenario-schema.js";
import { renderExposition, type ExporterFlavour } from "./render-exposition.js";

export interface FakeExporterOptions {
  readonly scenario: Scenario;
  readonly flavour: ExporterFlavour;
  /** The `vcenter` label of Telegraf's series; default `vc01.example.com:443`. */
  readonly vcenterName?: string;
  readonly clock?: () => number;
}

export interface FakeExporterHandle {
  /** host:port, for a scrape config's targets. */
  readonly target: string;
  readonly url: string;
  /** Same controls as the mock vCenter's, on the exporter's own copy of the scenario. */
  readonly controls: MockVcenterControls;
  /** Answer 503 to scrapes while true (the exporter is down). */
  setDown(down: boolean): void;
  scrapes(): number;
  close(): Promise<void>;
}

/** Serves `GET /metrics` in the Prometheus text format for the scenario (see renderExposition). */
export async function startFakeExporter(opts: FakeExporterOptions): Promise<FakeExporterHandle> {
  const state = createMockState(validateScenario(opts.scenario), opts.clock ?? Date.now);
  const vcenterName = opts.vcenterName ?? "vc01.example.com:443";
  let down = false;
  let scrapes = 0;
  const server = createServer((req, res) => {
    if (req.url !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    scrapes++;
    if (down) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" });
    res.end(renderExposition(state, opts.flavour, vcenterName));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    target: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/metrics`,
    controls: createControls(state),
    setDown: (d) => {
      down = d;
    },
    scrapes: () => scrapes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
