/**
 * poly.toml's biome settings checked against biome's own configuration schema
 * (`configuration_schema.json` from `@biomejs/biome`, the version poly runs),
 * with ajv. Loaded only for a file whose biome tables the validity memo has not
 * seen (`_engine_tables.ts`).
 *
 * The schema is 600 KB: compiled whole it costs seconds (every rule's options).
 * So each value is checked against the schema pruned to its own shape: the
 * properties it sets keep their schemas, the others become `true` (still listed,
 * so an unknown key is still refused), and only what the value reaches is
 * compiled.
 *
 * @module
 */
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import schema from "@biomejs/biome/configuration_schema.json" with { type: "json" };
import { suggest } from "./_suggest.ts";
import { describeValue, displayPath } from "./_issues.ts";
import type { ConfigProblem } from "./_issues.ts";
import type { KeyPath } from "./_locate.ts";

type SchemaNode = boolean | { [key: string]: unknown };
const BIOME = schema as unknown as { $defs: Record<string, SchemaNode>; [key: string]: unknown };

/** One value to check: what it must satisfy (a definition of the schema, or the whole configuration) and where it is. */
export interface BiomeValue {
  value: Record<string, unknown>;
  /** A `$defs` name (`FormatterConfiguration`); absent: the whole biome configuration. */
  def?: string;
  /** The value's key path in poly.toml. */
  at: KeyPath;
}

/** The shape of a value: which keys (and elements) it has, down to its leaves. */
type Shape = { kind: "leaf" } | { kind: "object"; keys: Map<string, Shape> } | { kind: "array"; items?: Shape };

const LEAF: Shape = { kind: "leaf" };

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) {
    return { kind: "array", items: value.map(shapeOf).reduce<Shape | undefined>((a, b) => merge(a, b), undefined) };
  }
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    return { kind: "object", keys: new Map(Object.entries(value).map(([k, v]) => [k, shapeOf(v)])) };
  }
  return LEAF;
}

function merge(a: Shape | undefined, b: Shape): Shape {
  if (!a || a.kind === "leaf") return b;
  if (a.kind === "object" && b.kind === "object") {
    const keys = new Map(a.keys);
    for (const [k, s] of b.keys) keys.set(k, merge(keys.get(k), s));
    return { kind: "object", keys };
  }
  if (a.kind === "array" && b.kind === "array") {
    return { kind: "array", items: b.items ? merge(a.items, b.items) : a.items };
  }
  return a;
}

/** `node` with what a value of `shape` cannot reach replaced by `true` (see the module doc). */
function prune(node: SchemaNode, shape: Shape, depth = 0): SchemaNode {
  if (typeof node === "boolean" || shape.kind === "leaf" || depth > 64) return node;
  const out: Record<string, unknown> = {};
  const all: SchemaNode[] = [];
  for (const [key, sub] of Object.entries(node)) {
    if (key === "$ref" && typeof sub === "string" && sub.startsWith("#/$defs/")) {
      all.push(prune(BIOME.$defs[sub.slice(8)] ?? true, shape, depth + 1));
    } else if (key === "properties" && sub && typeof sub === "object") {
      out.properties = Object.fromEntries(
        Object.entries(sub).map(([name, s]) => {
          const inner = shape.kind === "object" ? shape.keys.get(name) : undefined;
          return [name, inner ? prune(s as SchemaNode, inner, depth + 1) : true];
        }),
      );
    } else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(sub)) {
      const branches = sub.map((b) => prune(b as SchemaNode, shape, depth + 1));
      if (key === "allOf") all.push(...branches);
      else out[key] = branches;
    } else if (key === "items") {
      out.items = shape.kind === "array" && shape.items ? prune(sub as SchemaNode, shape.items, depth + 1) : true;
    } else if (key === "additionalProperties" && sub && typeof sub === "object") {
      const named = new Set(Object.keys((node.properties as object | undefined) ?? {}));
      const extra = shape.kind === "object"
        ? [...shape.keys].filter(([k]) => !named.has(k)).map(([, s]) => s).reduce<Shape | undefined>(merge, undefined)
        : undefined;
      out.additionalProperties = extra ? prune(sub as SchemaNode, extra, depth + 1) : true;
    } else {
      out[key] = sub;
    }
  }
  if (all.length) out.allOf = all;
  return out;
}

let ajv: Ajv2020 | undefined;

/** Problems of `value` against biome's schema (empty: none), each at its key in poly.toml. */
export function biomeProblems({ value, def, at }: BiomeValue): ConfigProblem[] {
  ajv ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false, verbose: true });
  const { $defs, ...root } = BIOME;
  const start: SchemaNode = def ? { $ref: `#/$defs/${def}` } : root;
  const validate = ajv.compile({ $defs, ...(prune(start, shapeOf(value)) as object) });
  if (validate(value)) return [];
  const problem = describe(validate.errors ?? [], value, at);
  return problem ? [problem] : [{ path: at, detail: "biome refuses these settings" }];
}

/** The most telling of ajv's errors: an unknown key first, then the deepest wrong value. */
function describe(errors: readonly ErrorObject[], value: unknown, at: KeyPath): ConfigProblem | undefined {
  const real = errors.filter((e) =>
    !["anyOf", "oneOf", "allOf", "if"].includes(e.keyword) &&
    !(e.keyword === "type" && (e.params as { type?: string }).type === "null")
  );
  const depth = (e: ErrorObject) => e.instancePath.split("/").length;
  const unknown = real.filter((e) => e.keyword === "additionalProperties").sort((a, b) => depth(b) - depth(a))[0];
  if (unknown) {
    const key = String((unknown.params as { additionalProperty: string }).additionalProperty);
    const allowed = Object.keys((unknown.parentSchema?.properties as object | undefined) ?? {});
    const path = [...at, ...segments(unknown.instancePath), key];
    const guess = suggest(key, allowed);
    const hint = guess
      ? ` (did you mean "${guess}"?)`
      : allowed.length && allowed.length <= 20
      ? ` (expected one of: ${allowed.map((k) => `"${k}"`).join(", ")})`
      : "";
    return { path, detail: `unknown key "${displayPath(path)}"${hint}` };
  }
  const deepest = real.sort((a, b) => depth(b) - depth(a))[0];
  if (!deepest) return undefined;
  const here = real.filter((e) => e.instancePath === deepest.instancePath);
  const path = [...at, ...segments(deepest.instancePath)];
  const got = valueAt(value, segments(deepest.instancePath));
  const values = here.flatMap((e) =>
    e.keyword === "enum"
      ? (e.params as { allowedValues: unknown[] }).allowedValues
      : e.keyword === "const"
      ? [(e.params as { allowedValue: unknown }).allowedValue]
      : []
  );
  const where = `invalid value for "${displayPath(path)}"`;
  if (values.length) {
    const unique = [...new Set(values.map((v) => JSON.stringify(v)))];
    const guess = typeof got === "string" ? suggest(got, values.map(String)) : undefined;
    return {
      path,
      detail: `${where}: biome expects one of ${unique.join(", ")}, got ${describeValue(got)}` +
        (guess ? ` (did you mean "${guess}"?)` : ""),
    };
  }
  const types = [...new Set(here.filter((e) => e.keyword === "type").map((e) => (e.params as { type: string }).type))];
  if (types.length) {
    return { path, detail: `${where}: biome expects ${types.map(article).join(" or ")}, got ${describeValue(got)}` };
  }
  return {
    path,
    detail: `${where}: biome's schema says it ${deepest.message ?? "is invalid"}, got ${describeValue(got)}`,
  };
}

function article(type: string): string {
  return ({ integer: "an integer", array: "an array", object: "a table" } as Record<string, string>)[type] ??
    `a ${type}`;
}

/** JSON Pointer segments (`/a/0/b~1c` → `a`, 0, `b/c`). */
function segments(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((s) => {
    const key = s.replaceAll("~1", "/").replaceAll("~0", "~");
    return /^\d+$/.test(key) ? Number(key) : key;
  });
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const k of path) v = v && typeof v === "object" ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/** The keys biome's JavaScript formatter options take (for a hint when one is set as a generic formatter key). */
export function languageFormatterKeys(): Record<string, string[]> {
  const keysOf = (def: string) => Object.keys(((BIOME.$defs[def] as { properties?: object })?.properties) ?? {});
  return {
    javascript: keysOf("JsFormatterConfiguration"),
    json: keysOf("JsonFormatterConfiguration"),
    css: keysOf("CssFormatterConfiguration"),
    graphql: keysOf("GraphqlFormatterConfiguration"),
  };
}
