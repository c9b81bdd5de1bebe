import { expect } from "chai";
import fc from "fast-check";
import { decodeJson, ExtenderArgsDecoder } from "../../src/protocol/extender-args-decoder.js";
import { ExtenderArgsError } from "../../src/protocol/parse-extender-args.js";
import { ReceivedBody } from "../../src/protocol/received-body.js";

const asText = (text: string) => new ReceivedBody(text);
const asBytes = (text: string) => new ReceivedBody(Buffer.from(text));

/** What parseExtenderArgs reads of a decoded body: its Pod, Nodes and NodeNames, those present (or the body itself, if not an object). */
function read(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const all = body as Record<string, unknown>;
  return Object.fromEntries(["Pod", "Nodes", "NodeNames"].filter((k) => Object.hasOwn(all, k)).map((k) => [k, all[k]]));
}

/** What the decoder must answer: what JSON.parse makes of the body. */
const expected = (body: string) => read(decodeJson(body));

/** The decoder's answer or its error, beside JSON.parse's. */
function outcome(decode: () => unknown): { members?: unknown; error?: string } {
  try {
    return { members: read(decode()) };
  } catch (err) {
    expect(err).to.be.instanceOf(ExtenderArgsError);
    return { error: (err as Error).message };
  }
}

describe("ExtenderArgsDecoder", () => {
  const pod = { metadata: { name: "p", annotations: { "x}": '"NodeNames":[]' } }, spec: { priority: 7 } };
  const names = ["node-1", "node-2", 'q"uote'];
  const body = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: names });

  it("decodes a body as JSON.parse does", () => {
    const members = new ExtenderArgsDecoder().decode(asText(body));
    expect(members).to.deep.equal(expected(body));
    expect(Object.getPrototypeOf(members)).to.equal(Object.prototype);
  });

  it("given the same pod or list text again, hands back the very value decoded before, frozen", () => {
    const decoder = new ExtenderArgsDecoder();
    const first = decoder.decode(asText(body));
    const again = decoder.decode(asText(` {"Pod" : ${JSON.stringify(pod)}, "NodeNames":${JSON.stringify(names)}}`));
    expect(again.Pod).to.equal(first.Pod);
    expect(again.NodeNames).to.equal(first.NodeNames);
    expect(Object.isFrozen(first.NodeNames)).to.equal(true);
    expect(Object.isFrozen((first.Pod as typeof pod).metadata.annotations)).to.equal(true);
    const otherPod = decoder.decode(asText(JSON.stringify({ Pod: { ...pod, spec: {} }, NodeNames: names })));
    expect(otherPod.Pod).to.deep.equal({ ...pod, spec: {} });
    expect(otherPod.NodeNames).to.equal(first.NodeNames);
  });

  it("given the same bytes again, answers the members decoded before, without decoding the text", () => {
    const decoder = new ExtenderArgsDecoder();
    const first = decoder.decode(asBytes(body));
    let decoded = 0;
    const again = new (class extends ReceivedBody {
      override text(): string {
        decoded++;
        return super.text();
      }
    })(Buffer.from(body));
    expect(decoder.decode(again)).to.equal(first);
    expect(decoded).to.equal(0);
    expect(Object.isFrozen(first)).to.equal(true);
    const big = JSON.stringify({ Pod: pod, NodeNames: Array.from({ length: 90_000 }, (_, i) => `node-${i}`) });
    expect(decoder.decode(asBytes(big))).to.not.equal(decoder.decode(asBytes(big)));
  });

  it("remembers the last two of each: a pod's filter and prioritize, the last candidate lists", () => {
    const decoder = new ExtenderArgsDecoder();
    const bodyOf = (n: number) => JSON.stringify({ Pod: { n }, NodeNames: [`${n}`] });
    const first = decoder.decode(asText(bodyOf(1)));
    decoder.decode(asText(bodyOf(2)));
    expect(decoder.decode(asText(bodyOf(1))).Pod).to.equal(first.Pod);
    decoder.decode(asText(bodyOf(3)));
    expect(decoder.decode(asText(bodyOf(1))).Pod).to.not.equal(first.Pod);
  });

  it("does not remember from a body over 1 MiB, whose slices would keep it alive", () => {
    const decoder = new ExtenderArgsDecoder();
    const big = JSON.stringify({ Pod: pod, NodeNames: Array.from({ length: 90_000 }, (_, i) => `node-${i}`) });
    expect(big.length).to.be.greaterThan(1024 * 1024);
    expect(decoder.decode(asText(big)).Pod).to.not.equal(decoder.decode(asText(big)).Pod);
  });

  it("given bodies it is not certain of, answers as JSON.parse, or its error", () => {
    const list = JSON.stringify(names);
    const podText = JSON.stringify(pod);
    const cases = [
      `{"Pod":${podText},"NodeNames":${list.slice(0, -1)},"x"]}`, // a known list's start, then more names
      `{"Pod":${podText},"NodeNames":${list}]}`,
      `{"Pod":${podText},"NodeNames":${list}} x`, // trailing text
      `{"Pod":${podText},"NodeNames":${list},}`, // trailing comma
      `{"Pod":${podText},"NodeNames":${list},"NodeNames":null}`, // the last one counts
      `{"NodeNames":${list},"Pod":${podText}}`, // NodeNames not last
      `{"Pod":${podText},"Nodes":{"items":[]},"NodeNames":${list}}`, // a NodeList: full Nodes mode
      `{"Pod":${podText.slice(0, -1)},"NodeNames":${list}}`,
      `{"Pod":{"a":[}],"NodeNames":${list}}`, // the Pod is not JSON
      `{"Pod":{"a":tru},"NodeNames":${list}}`,
      `{"Pod":"a\tb","NodeNames":${list}}`, // a raw control character in a string
      `{"P\tod":{},"NodeNames":${list}}`, // ...and in a key
      `{"P\\x":{},"NodeNames":${list}}`, // an invalid escape in a key
      `{"N\\u006fdeNames":${list},"Pod":${podText}}`, // an escaped key
      `{"Pod":${podText},"other":01,"NodeNames":${list}}`, // an unread member is still checked
      `{"Pod":${podText},"__proto__":{"x":1},"NodeNames":${list}}`,
      `{"Pod":${podText},"Nodes":nul,"NodeNames":${list}}`,
      `{"Pod":${podText} "NodeNames":${list}}`,
      `{"Pod":${podText},"NodeNames":${list}`,
      `{"Pod":${podText},"NodeNames":${list} , }`,
      `{"Pod":${podText},"NodeNames":${list}  \n}\n`,
      `\uFEFF{"Pod":${podText},"NodeNames":${list}}`, // JSON has no byte-order mark
      `[${list}]`,
      "{}",
      "",
      "  ",
    ];
    for (const text of cases) {
      const decoder = new ExtenderArgsDecoder();
      decoder.decode(asText(body));
      const got = outcome(() => decoder.decode(asText(text)));
      expect(got, text).to.deep.equal(outcome(() => expected(text)));
    }
  });

  it("given any members, spacing and order, answers as JSON.parse, first time and again", () => {
    const spacing = fc.constantFrom("", " ", "\n", "\t", "\r\n  ");
    const member = fc
      .tuple(fc.constantFrom("Pod", "Nodes", "NodeNames", "x", "__proto__"), fc.oneof(fc.jsonValue(), fc.constant(null)))
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    fc.assert(
      fc.property(fc.array(member, { maxLength: 5 }), fc.array(fc.string()), fc.jsonValue(), spacing, (others, list, podValue, gap) => {
        const members = [...others, `"Pod":${JSON.stringify(podValue)}`, `"NodeNames":${gap}${JSON.stringify(list)}`];
        const text = `${gap}{${gap}${members.join(`${gap},${gap}`)}${gap}}${gap}`;
        const decoder = new ExtenderArgsDecoder();
        expect(read(decoder.decode(asText(text)))).to.deep.equal(expected(text));
        expect(read(decoder.decode(asText(text)))).to.deep.equal(expected(text));
        expect(read(decoder.decode(asBytes(text)))).to.deep.equal(expected(text));
        expect(read(decoder.decode(asBytes(text)))).to.deep.equal(expected(text));
      }),
      { numRuns: 400 },
    );
  });

  it("given any edit of a body it has seen, answers as JSON.parse, or its error", () => {
    const edit = fc.tuple(
      fc.nat(body.length),
      fc.nat(3),
      fc.constantFrom("", " ", '"', "\\", "{", "}", "[", "]", ",", ":", "\t", "0", "n"),
    );
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        let text = body;
        for (const [at, drop, insert] of edits) text = text.slice(0, at) + insert + text.slice(at + drop);
        const decoder = new ExtenderArgsDecoder();
        decoder.decode(asBytes(body));
        expect(
          outcome(() => decoder.decode(asBytes(text))),
          text,
        ).to.deep.equal(outcome(() => expected(text)));
      }),
      { numRuns: 3000 },
    );
  });
});
