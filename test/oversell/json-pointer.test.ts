import { expect } from "chai";
import { escapePointerToken, jsonPointer } from "../../src/oversell/json-pointer.js";

describe("escapePointerToken", () => {
  const cases = [
    { token: "hvx.io/oversell", want: "hvx.io~1oversell" },
    { token: "a~b", want: "a~0b" },
    { token: "~/", want: "~0~1" }, // ~ first, else "/" -> "~1" -> "~01"
    { token: "~1", want: "~01" },
    { token: "plain", want: "plain" },
  ];
  for (const c of cases) it(`given ${c.token}, returns ${c.want}`, () => expect(escapePointerToken(c.token)).to.equal(c.want));
});

describe("jsonPointer", () => {
  it("given mixed tokens, joins them with escaping", () => {
    expect(jsonPointer(["metadata", "annotations", "hvx.io/original-requests"])).to.equal(
      "/metadata/annotations/hvx.io~1original-requests",
    );
    expect(jsonPointer(["spec", "containers", 3])).to.equal("/spec/containers/3");
  });
});
