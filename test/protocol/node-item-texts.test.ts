import { expect } from "chai";
import fc from "fast-check";
import { nodeItemTexts } from "../../src/protocol/node-item-texts.js";
import { realisticNode } from "../fixtures/wire-node.js";

const decoded = (texts: readonly string[] | undefined) => texts?.map((t) => JSON.parse(t) as unknown);

describe("nodeItemTexts", () => {
  it("given a body as JSON.stringify writes it, answers each node's own serialization", () => {
    const items = [realisticNode("w1", "4226-1", 1), realisticNode("w2", "4226-2", 2)];
    const body = JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: { metadata: {}, items }, NodeNames: null });
    expect(nodeItemTexts(body)).to.deep.equal(items.map((n) => JSON.stringify(n)));
  });

  it("given spacing, escapes and every kind of value inside the nodes, answers texts that decode to the nodes", () => {
    const items = [
      { metadata: { name: 'a "q" \\', labels: { "x}": "]{", "y\\": '\\"' } }, spec: { taints: [[], {}, [[1]]] } },
      { metadata: { name: "b\u2028\u00e9" }, status: { n: -1.5e-3, t: true, f: false, z: null, e: "" } },
    ];
    const body = `{ "Pod" : {"metadata":{"name":"p,]}"}} ,\n\t"Nodes" :{ "items" : [ ${items.map((i) => JSON.stringify(i, null, 2)).join(" ,\r\n")} ] } }`;
    expect(decoded(nodeItemTexts(body))).to.deep.equal(items);
  });

  it("keeps a number's digits where a JavaScript number would lose them", () => {
    const body = '{"Pod":{},"Nodes":{"items":[{"metadata":{"name":"w"},"generation":12345678901234567891}]}}';
    expect(nodeItemTexts(body)).to.deep.equal(['{"metadata":{"name":"w"},"generation":12345678901234567891}']);
  });

  it("given a key sent twice, takes the last, as JSON.parse and Go's decoder do", () => {
    const body = '{"Nodes":{"items":[{"n":1}]},"Pod":{},"Nodes":{"items":[{"n":2}],"items":[{"n":3},{"n":4}]}}';
    expect(nodeItemTexts(body)).to.deep.equal(['{"n":3}', '{"n":4}']);
  });

  it("reads a key spelled with escapes as JSON.parse does", () => {
    expect(nodeItemTexts('{"N\\u006fdes":{"\\u0069tems":[{"n":1}]}}')).to.deep.equal(['{"n":1}']);
  });

  it("given no nodes, answers none: Nodes null, absent, or an empty list", () => {
    expect(nodeItemTexts('{"Pod":{},"Nodes":null,"NodeNames":["a"]}')).to.deep.equal([]);
    expect(nodeItemTexts('{"Pod":{},"Nodes":{"items":[]}}')).to.deep.equal([]);
    expect(nodeItemTexts('{"Pod":{},"NodeNames":["a"]}')).to.equal(undefined);
  });

  it("answers undefined for a body not shaped as ExtenderArgs, never throws", () => {
    for (const body of ["[]", "null", '"x"', '{"Nodes":"x"}', '{"Nodes":{"items":{}}}', '{"Nodes":[1]}', "{", '{"Nodes":{"items":[1,']) {
      expect(nodeItemTexts(body), body).to.equal(undefined);
    }
  });

  it("given any JSON nodes with any spacing, answers texts that decode to what JSON.parse made of them", () => {
    const spacing = fc.constantFrom("", " ", "\n", "\t", "\r\n  ");
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.jsonValue(), spacing, fc.integer({ min: 0, max: 2 }), (items, pod, gap, indent) => {
        const list = JSON.stringify({ kind: "NodeList", items }, null, indent);
        const body = `{${gap}"Pod":${JSON.stringify(pod)},"Nodes":${gap}${list}${gap},"NodeNames":null}`;
        const texts = nodeItemTexts(body);
        expect(decoded(texts)).to.deep.equal((JSON.parse(body) as { Nodes: { items: unknown[] } }).Nodes.items);
      }),
      { numRuns: 300 },
    );
  });
});
