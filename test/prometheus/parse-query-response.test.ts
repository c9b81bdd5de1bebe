import { expect } from "chai";
import { parseQueryResponse } from "../../src/prometheus/parse-query-response.js";
import { PrometheusQueryError } from "../../src/prometheus/prometheus-query-error.js";

const vector = (result: unknown[]) => JSON.stringify({ status: "success", data: { resultType: "vector", result } });

describe("parseQueryResponse", () => {
  const ok: Array<{
    name: string;
    status: number;
    body: string;
    want: Array<{ labels: Record<string, string>; value: number; atMs: number }>;
  }> = [
    {
      name: "given a vector, returns labels, value and time in ms",
      status: 200,
      body: vector([{ metric: { __name__: "up", moid: "host-11" }, value: [1764500000.123, "42.5"] }]),
      want: [{ labels: { __name__: "up", moid: "host-11" }, value: 42.5, atMs: 1764500000123 }],
    },
    { name: "given an empty vector, returns nothing", status: 200, body: vector([]), want: [] },
    {
      name: "given NaN and +Inf values, drops them (unknown, never 0)",
      status: 200,
      body: vector([
        { metric: { a: "1" }, value: [1, "NaN"] },
        { metric: { a: "2" }, value: [1, "+Inf"] },
        { metric: { a: "3" }, value: [1, "0"] },
      ]),
      want: [{ labels: { a: "3" }, value: 0, atMs: 1000 }],
    },
  ];
  for (const c of ok) it(c.name, () => expect(parseQueryResponse(c.status, c.body, "q")).to.deep.equal(c.want));

  const bad: Array<{ name: string; status: number; body: string; kind: string; message: RegExp }> = [
    {
      name: "given an error body (422), throws an http error with the errorType",
      status: 422,
      body: JSON.stringify({ status: "error", errorType: "execution", error: "many-to-many matching not allowed" }),
      kind: "http",
      message: /422 execution: many-to-many/,
    },
    {
      name: "given a bad_data error (400), throws an http error",
      status: 400,
      body: JSON.stringify({ status: "error", errorType: "bad_data", error: "parse error" }),
      kind: "http",
      message: /bad_data/,
    },
    {
      name: "given a 502 HTML page from a proxy, throws an http error",
      status: 502,
      body: "<html>Bad Gateway</html>",
      kind: "http",
      message: /502/,
    },
    { name: "given a 200 that is not JSON, throws a response error", status: 200, body: "{cut", kind: "response", message: /not JSON/ },
    {
      name: "given a matrix instead of a vector, throws a response error",
      status: 200,
      body: JSON.stringify({ status: "success", data: { resultType: "matrix", result: [] } }),
      kind: "response",
      message: /not an instant vector/,
    },
  ];
  for (const c of bad) {
    it(c.name, () => {
      try {
        parseQueryResponse(c.status, c.body, "q");
        expect.fail("should throw");
      } catch (err) {
        expect(err).to.be.instanceOf(PrometheusQueryError);
        expect((err as PrometheusQueryError).kind).to.equal(c.kind);
        expect((err as Error).message).to.match(c.message);
      }
    });
  }
});
