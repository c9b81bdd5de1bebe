import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z, type ZodTypeAny } from "zod";
import { scenarioSchema } from "../../src/simulate/scenario.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const DOC = "docs/scenarios.md";
const SECTION = "## Every key";

/** A leaf key of the scenario schema: its dotted path (`[]` for array items), and its default, "required" or "absent". */
interface SchemaKey {
  readonly path: string;
  readonly default: string;
}

/** Every leaf key the parser accepts, walking zod 3's schema (objects, arrays, unions of objects, defaults, refinements). */
function schemaKeys(t: ZodTypeAny, path = "", fallback = "required"): SchemaKey[] {
  const def = t._def as { typeName: string } & Record<string, unknown>;
  switch (def.typeName) {
    case "ZodDefault":
      return schemaKeys(def.innerType as ZodTypeAny, path, defaultText((def.defaultValue as () => unknown)()));
    case "ZodOptional":
      return schemaKeys(def.innerType as ZodTypeAny, path, fallback === "required" ? "absent" : fallback);
    case "ZodEffects":
      return schemaKeys(def.schema as ZodTypeAny, path, fallback);
    case "ZodArray": {
      const item = def.type as ZodTypeAny;
      return isObject(item) ? schemaKeys(item, `${path}[]`) : [{ path, default: fallback }];
    }
    case "ZodUnion": {
      const options = def.options as ZodTypeAny[];
      return options.some(isObject) ? options.filter(isObject).flatMap((o) => schemaKeys(o, path)) : [{ path, default: fallback }];
    }
    case "ZodObject":
      return Object.entries((def.shape as () => Record<string, ZodTypeAny>)()).flatMap(([k, v]) =>
        schemaKeys(v, path ? `${path}.${k}` : k),
      );
    default:
      return [{ path, default: fallback }];
  }
}

function isObject(t: ZodTypeAny): boolean {
  const def = t._def as { typeName: string } & Record<string, unknown>;
  if (def.typeName === "ZodObject") return true;
  const inner = (def.innerType ?? def.schema) as ZodTypeAny | undefined;
  return inner !== undefined && isObject(inner);
}

/** A default as the doc writes it: `20`, `normal`, `false`, `[]`; an object default ({}) is "absent" (its keys carry the defaults). */
function defaultText(v: unknown): string {
  if (typeof v === "object" && v !== null && !Array.isArray(v)) return "absent";
  return typeof v === "string" ? (v === "" ? '""' : v) : JSON.stringify(v);
}

/** The doc's key table under SECTION: first cell the key in backticks, third the default. */
function docKeys(): Map<string, string> {
  const text = readFileSync(join(ROOT, DOC), "utf8");
  const start = text.indexOf(SECTION);
  expect(start, `${DOC} has a "${SECTION}" section`).to.be.greaterThan(-1);
  const rows = new Map<string, string>();
  for (const line of text.slice(start).split("\n").slice(1)) {
    if (line.startsWith("## ")) break;
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    const key = /^`([^`]+)`$/.exec(cells[1] ?? "")?.[1];
    if (key !== undefined) rows.set(key, (cells[3] ?? "").replace(/`/g, ""));
  }
  return rows;
}

describe(`${DOC}: every scenario key`, () => {
  const keys = schemaKeys(scenarioSchema);
  let doc = new Map<string, string>();
  before(() => {
    doc = docKeys();
  });

  it("given the scenario parser's keys, the doc lists each one", () => {
    const missing = [...new Set(keys.map((k) => k.path))].filter((p) => !doc.has(p));
    expect(missing, `add these to ${DOC} "${SECTION}"`).to.deep.equal([]);
  });

  it("given the doc's key list, every key exists in the parser (no stale entry)", () => {
    const known = new Set(keys.map((k) => k.path));
    expect([...doc.keys()].filter((k) => !known.has(k))).to.deep.equal([]);
  });

  it("given each key's default in the parser, the doc states it (or required / absent)", () => {
    const wrong = keys
      .filter((k) => doc.has(k.path) && !doc.get(k.path)!.startsWith(k.default))
      .map((k) => `${k.path}: doc says "${doc.get(k.path)}", parser "${k.default}"`);
    expect(wrong).to.deep.equal([]);
  });

  it("given a small schema, the walker returns its leaf keys with required, defaults and absent (the check can fail)", () => {
    const schema = z.object({
      a: z.number(),
      b: z.object({ c: z.number().default(3), d: z.enum(["x", "y"]).default("x") }).default({}),
      e: z.array(z.object({ f: z.string().optional() })).default([]),
      g: z.array(z.number()).optional(),
    });
    expect(schemaKeys(schema)).to.deep.equal([
      { path: "a", default: "required" },
      { path: "b.c", default: "3" },
      { path: "b.d", default: "x" },
      { path: "e[].f", default: "absent" },
      { path: "g", default: "absent" },
    ]);
  });
});
