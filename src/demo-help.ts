/** Where the demo listens, as `npm start` reports it. */
export interface DemoPorts {
  /** e.g. `http://localhost:8888` (https with `server.tls`). */
  readonly extender: string;
  readonly admin: string;
  /** Absent when the webhook is off. */
  readonly admission?: string;
}

/** The demo's pending pod, which `hvx explain` and `GET /debug/explain?pod=` judge. */
export const DEMO_PENDING_POD_REF = "shop/web-5d8f7c9b6-pending";

/** Defaults of `server.port`, `server.adminPort`, `admission.port`: the ports the README shows. */
export const DEFAULT_DEMO_PORTS: DemoPorts = {
  extender: "http://localhost:8888",
  admin: "http://localhost:9090",
  admission: "http://localhost:8443",
};

export interface DemoCommand {
  /** What the command shows, printed as a `#` line above it. */
  readonly shows: string;
  readonly command: string;
}

const JSON_BODY = "-H 'Content-Type: application/json' -d @";
/** The AdmissionReview's patch is base64 (the API server's wire format): decoded, it is the JSON Patch. */
export const DECODE_PATCH = " | jq -r .response.patch | base64 -d; echo";

/**
 * The commands `npm start` prints and the README lists (one set; a test compares them), each
 * showing a feature of the demo. `examples` is the path to `examples/` as the reader types it.
 */
export function demoCommands(ports: DemoPorts, examples: string): DemoCommand[] {
  const ex = (name: string) => `${JSON_BODY}${examples}/${name}`;
  const commands: DemoCommand[] = [
    {
      shows: "filter: workers 01-02 rejected for CPU ready, 03-04 for balloon, 05-06 for swap (short reasons; explain names the hosts)",
      command: `curl -s -X POST ${ports.extender}/filter ${ex("filter-nodenames.json")}`,
    },
    {
      shows: "prioritize: workers 07-08 on warm esx-04 score below those on cool hosts (09-19)",
      command: `curl -s -X POST ${ports.extender}/prioritize ${ex("filter-nodenames.json")}`,
    },
    {
      shows: "preempt: worker 01 (on hot esx-01) is no candidate, since evicting its pods would not cool the host; 07 and 09 stay",
      command: `curl -s -X POST ${ports.extender}/preempt ${ex("preempt-metavictims.json")}`,
    },
    {
      shows: "explain (admin port): why each node passes or fails, for a pending pod of the demo cluster",
      command: `npx hvx explain --url ${ports.admin} --pod ${DEMO_PENDING_POD_REF}`,
    },
    {
      shows: "explain as JSON for the ExtenderArgs /filter gets: each rule against its threshold, headroom terms, penalties",
      command: `curl -s -X POST ${ports.admin}/debug/explain ${ex("filter-nodenames.json")}`,
    },
    { shows: "every host's metrics, heat and reasons (?pretty: indented JSON)", command: `curl -s ${ports.admin}/debug/hosts?pretty` },
    { shows: "hvx's metrics", command: `curl -s ${ports.admin}/metrics | grep '^hvx_'` },
  ];
  if (ports.admission !== undefined) {
    commands.push({
      shows:
        "webhook (plain HTTP in the demo), its base64 JSON Patch decoded (needs jq): cpu requests scaled by the namespace's ratio, originals kept",
      command: `curl -s -X POST ${ports.admission}/mutate ${ex("admissionreview-pod-create.json")}${DECODE_PATCH}`,
    });
  }
  return commands;
}

/** The commands as shell lines: `# what it shows` above each command. */
export function demoCommandLines(ports: DemoPorts, examples: string): string[] {
  return demoCommands(ports, examples).flatMap((c) => [`# ${c.shows}`, c.command]);
}

/** What `npm start` prints after start-up. */
export function demoHelp(vcenterUrl: string, ports: DemoPorts, examples: string): string {
  const lines = demoCommandLines(ports, examples).map((l) => `  ${l}`);
  return `\nhvx is serving the demo (mock vCenter at ${vcenterUrl}). Try:\n\n${lines.join("\n")}\n\nOpen ${ports.admin}/ui in a browser: every ESXi host by heat, the oversell ledger, advice and explain.\n\n`;
}
