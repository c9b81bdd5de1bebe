import { expect } from "chai";
import { describeError } from "../../src/cluster/describe-error.js";

describe("describeError", () => {
  const status = JSON.stringify({
    kind: "Status",
    apiVersion: "v1",
    status: "Failure",
    message: "the server is currently unable to handle the request",
    reason: "ServiceUnavailable",
    code: 503,
  });
  const cases: Array<{ name: string; err: unknown; want: string }> = [
    {
      name: "given an ApiException with a Status body, names code, reason and message only",
      err: Object.assign(new Error(`HTTP-Code: 503\nMessage: Unknown\nBody: ${status}\nHeaders: {"set-cookie":"secret"}`), {
        code: 503,
        body: status,
        headers: { "set-cookie": "secret" },
      }),
      want: "HTTP 503 ServiceUnavailable: the server is currently unable to handle the request",
    },
    {
      name: "given a watch error with statusCode, uses it",
      err: Object.assign(new Error("Gone"), { statusCode: 410 }),
      want: "HTTP 410 Gone",
    },
    {
      name: "given a network error, keeps its first line",
      err: new Error("connect ECONNREFUSED 127.0.0.1:1\nstack"),
      want: "connect ECONNREFUSED 127.0.0.1:1",
    },
    { name: "given a non-error, stringifies it", err: "boom", want: "boom" },
  ];
  for (const t of cases) it(t.name, () => expect(describeError(t.err)).to.equal(t.want));

  it("given response headers in the message, never repeats them", () => {
    const err = Object.assign(new Error('HTTP-Code: 500\nHeaders: {"authorization":"Bearer x"}'), { code: 500, body: "not json" });
    expect(describeError(err)).to.not.contain("Bearer");
  });
});
