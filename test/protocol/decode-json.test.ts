import { expect } from "chai";
import { decodeJson } from "../../src/protocol/decode-json.js";
import { ExtenderArgsError } from "../../src/protocol/parse-extender-args.js";

describe("decodeJson", () => {
  it("given a JSON body, returns what JSON.parse makes of it", () => {
    const body = JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["node-1", 'q"uote'] });
    expect(decodeJson(body)).to.deep.equal(JSON.parse(body));
  });

  const refused: Array<[string, string, RegExp]> = [
    ["an empty body", "", /^empty request body/],
    ["a body of spaces", " \n\t", /^empty request body/],
    ["truncated JSON", '{"Pod": {', /^malformed JSON: /],
    ["a byte-order mark (JSON has none)", '\uFEFF{"Pod":{}}', /^malformed JSON: /],
    ["trailing text", '{"Pod":{}} x', /^malformed JSON: /],
  ];
  for (const [name, body, message] of refused) {
    it(`given ${name}, throws ExtenderArgsError saying so`, () => {
      expect(() => decodeJson(body))
        .to.throw(ExtenderArgsError)
        .with.property("message")
        .that.matches(message);
    });
  }
});
