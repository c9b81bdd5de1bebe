import { createServer } from "node:http";

/**
 * The physical floor of an extender (issue 13): a bare `node:http` server that reads the body,
 * parses the same `ExtenderArgs`, and answers every candidate as passing (filter) or with the
 * same score (prioritize). Nothing is decided, logged or counted. Run as a child process:
 * `node dist/bench/extender-floor.js`; it prints `{"port":N}` once listening.
 */
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    let args: { NodeNames?: string[] | null; Nodes?: { items?: Array<{ metadata?: { name?: string } }> } | null };
    try {
      args = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(400, { "content-type": "application/json" }).end('{"Error":"malformed JSON"}');
      return;
    }
    const items = args.Nodes?.items;
    const names = args.NodeNames ?? (items ?? []).map((n) => n.metadata?.name ?? "");
    const body =
      req.url === "/prioritize"
        ? JSON.stringify(names.map((Host) => ({ Host, Score: 5 })))
        : JSON.stringify(
            items
              ? { Nodes: { metadata: {}, items }, NodeNames: null, FailedNodes: {}, FailedAndUnresolvableNodes: {}, Error: "" }
              : { Nodes: null, NodeNames: names, FailedNodes: {}, FailedAndUnresolvableNodes: {}, Error: "" },
          );
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
