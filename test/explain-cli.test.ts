import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { UsageError } from "../src/cli-args.js";
import { ExplainError, parseExplainArgs, runExplain, type ExplainOptions } from "../src/explain-cli.js";
import { freePort } from "./fixtures/net.js";

const DEFAULT = "http://localhost:9090";

describe("parseExplainArgs", () => {
  const ok: Array<{ name: string; argv: string[]; want: ExplainOptions }> = [
    { name: "--pod", argv: ["--pod", "shop/web-1"], want: { url: DEFAULT, target: { pod: "shop/web-1" }, json: false } },
    {
      name: "the pod as the one argument (kubectl hvx explain NS/NAME)",
      argv: ["shop/web-1"],
      want: { url: DEFAULT, target: { pod: "shop/web-1" }, json: false },
    },
    {
      name: "--file, --url= and --json",
      argv: ["--file", "args.json", "--url=http://hvx:9090/", "--json"],
      want: { url: "http://hvx:9090", target: { file: "args.json" }, json: true },
    },
  ];
  for (const c of ok) it(`given ${c.name}, parses it`, () => expect(parseExplainArgs(c.argv, DEFAULT)).to.deep.equal(c.want));

  const bad: Array<{ name: string; argv: string[]; error: RegExp }> = [
    { name: "neither pod nor file", argv: [], error: /either a pod \(NAMESPACE\/NAME\) or --file/ },
    { name: "both pod and file", argv: ["--pod", "a/b", "--file", "x.json"], error: /either a pod/ },
    { name: "a pod without namespace", argv: ["web-1"], error: /pod must be NAMESPACE\/NAME, got 'web-1'/ },
    { name: "--url without value", argv: ["a/b", "--url"], error: /--url needs a value/ },
    { name: "a non-http URL", argv: ["a/b", "--url", "ftp://x"], error: /--url must be an http\(s\) URL/ },
    { name: "an unknown option", argv: ["a/b", "--watch"], error: /unknown option --watch/ },
    { name: "two pods", argv: ["a/b", "c/d"], error: /unexpected argument 'c\/d'/ },
  ];
  for (const c of bad)
    it(`given ${c.name}, throws a UsageError`, () => expect(() => parseExplainArgs(c.argv, DEFAULT)).to.throw(UsageError, c.error));
});

describe("runExplain", () => {
  let server: Server;
  let url: string;
  const seen: Array<{ method: string; url: string; body: string }> = [];
  const reply = {
    pod: "shop/web-1",
    nodes: [
      {
        node: "n1",
        mapping: {},
        verdict: "pass",
        unresolvable: false,
        noOpinion: false,
        reasons: [],
        warnings: [],
        heat: "cool",
        rules: [],
        penalties: { limits: [], adjustments: [] },
        score: 9,
      },
    ],
  };
  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({ method: req.method!, url: req.url!, body });
        if (req.url!.includes("missing")) {
          res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ Error: "hvx: pod shop/missing not found" }));
        } else if (req.url!.startsWith("/elsewhere")) {
          res.writeHead(404).end("Cannot GET");
        } else {
          res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(reply));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  const dir = mkdtempSync(join(tmpdir(), "hvx-explain-"));
  const args = join(dir, "args.json");
  writeFileSync(args, JSON.stringify({ Pod: {}, NodeNames: ["n1"] }));
  const notJson = join(dir, "broken.json");
  writeFileSync(notJson, "{ Pod:");

  it("given --pod, GETs /debug/explain?pod= and prints the table with its summary", async () => {
    const out = await runExplain({ url, target: { pod: "shop/web-1" }, json: false });
    expect(seen.at(-1)).to.deep.include({ method: "GET", url: "/debug/explain?pod=shop%2Fweb-1" });
    expect(out).to.match(/^pod shop\/web-1\nNODE\s+HOST/);
    expect(out).to.include("0 of 1 node rejected; 1 pass, best n1 (score 9)");
  });

  it("given --file and --json, POSTs the file and prints the JSON answer", async () => {
    const out = await runExplain({ url, target: { file: args }, json: true });
    expect(seen.at(-1)).to.deep.include({ method: "POST", url: "/debug/explain", body: JSON.stringify({ Pod: {}, NodeNames: ["n1"] }) });
    expect(JSON.parse(out)).to.deep.equal(reply);
  });

  const failures: Array<{ name: string; options: () => Promise<ExplainOptions>; error: RegExp }> = [
    {
      name: "a missing file",
      options: async () => ({ url, target: { file: join(dir, "nope.json") }, json: false }),
      error: /cannot read .*nope\.json: ENOENT/,
    },
    {
      name: "a file that is not JSON",
      options: async () => ({ url, target: { file: notJson }, json: false }),
      error: /broken\.json is not JSON \(expected ExtenderArgs/,
    },
    {
      name: "an unreachable URL",
      options: async () => ({ url: `http://127.0.0.1:${await freePort()}`, target: { pod: "a/b" }, json: false }),
      error: /cannot reach hvx at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): give its admin port with --url or HVX_URL/,
    },
    {
      name: "an HTTP 400",
      options: async () => ({ url, target: { pod: "shop/missing" }, json: false }),
      error: /GET .*\/debug\/explain answered 400: hvx: pod shop\/missing not found/,
    },
    {
      name: "a URL that is not hvx's admin port (404)",
      options: async () => ({ url: `${url}/elsewhere`, target: { pod: "a/b" }, json: false }),
      error: /answered 404 \(is this hvx's admin port, server.adminPort\?\): Cannot GET/,
    },
  ];
  for (const f of failures) {
    it(`given ${f.name}, throws an ExplainError saying what went wrong`, async () => {
      const err = await runExplain(await f.options()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(ExplainError);
      expect((err as Error).message).to.match(f.error);
    });
  }
});
