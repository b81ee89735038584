/**
 * Turns zod issues into one message a person can act on, positioned at the
 * offending key: `unknown key "lint.pyton" (did you mean "python"?)`,
 * `invalid value for "defaults.line_length": expected an integer, got a string ("x")`.
 *
 * @module
 */
import type { z } from "zod";
import { suggest } from "./_suggest.ts";
import type { KeyPath } from "./_locate.ts";

/** One problem found in a file, not yet positioned. */
export interface ConfigProblem {
  /** Where the key is (for an unknown key: the key itself). */
  path: KeyPath;
  /** A required key is absent: reported after other problems at the same place (a typo usually explains it). */
  missing?: boolean;
  /** The message detail, without file and position. */
  detail: string;
}

type Issue = z.core.$ZodIssue;
// deno-lint-ignore no-explicit-any
type AnySchema = any;

/** Every problem zod found in `data` against `schema`, one per offending key. */
export function describeIssues(issues: readonly Issue[], data: unknown, schema: z.ZodType): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of flatten(issues, [])) {
    const path = issue.path as (string | number)[];
    if (issue.code === "unrecognized_keys") {
      const allowed = allowedKeys(schema, path);
      for (const key of issue.keys) {
        problems.push({ path: [...path, key], detail: unknownKey([...path, key], allowed) });
      }
    } else {
      const value = valueAt(data, path);
      problems.push({
        path,
        detail: invalidValue(issue, path, value, schemaAt(schema, path)),
        missing: value === undefined,
      });
    }
  }
  return problems;
}

function unknownKey(path: KeyPath, allowed: string[]): string {
  const key = String(path[path.length - 1]);
  const guess = suggest(key, allowed);
  const hint = guess
    ? ` (did you mean "${guess}"?)`
    : allowed.length > 0
    ? ` (expected one of: ${allowed.map((k) => `"${k}"`).join(", ")})`
    : "";
  return `unknown key "${displayPath(path)}"${hint}`;
}

function invalidValue(issue: Issue, path: KeyPath, value: unknown, node: AnySchema | undefined): string {
  const where = `"${displayPath(path)}"`;
  switch (issue.code) {
    case "invalid_type": {
      const expected = node?.isInt === true ? "an integer" : typeName(issue.expected);
      if (value === undefined) return `missing key ${where}: expected ${expected}`;
      return `invalid value for ${where}: expected ${expected}, got ${describeValue(value)}`;
    }
    case "invalid_value": {
      const values = issue.values.map((v) => JSON.stringify(v));
      const guess = typeof value === "string" ? suggest(value, issue.values.map(String)) : undefined;
      if (guess && values.length > 8) {
        return `invalid value for ${where}: unknown value ${JSON.stringify(value)} (did you mean "${guess}"?)`;
      }
      return `invalid value for ${where}: expected one of ${values.join(", ")}, got ${describeValue(value)}` +
        (guess ? ` (did you mean "${guess}"?)` : "");
    }
    case "too_small":
    case "too_big": {
      if (issue.origin === "string" && issue.code === "too_small") {
        return `invalid value for ${where}: must not be empty`;
      }
      const bound = issue.code === "too_small"
        ? `${issue.inclusive ? ">=" : ">"} ${issue.minimum}`
        : `${issue.inclusive ? "<=" : "<"} ${issue.maximum}`;
      const kind = Number.isInteger(value) ? "an integer" : "a number";
      return `invalid value for ${where}: expected ${kind} ${bound}, got ${describeValue(value)}`;
    }
    case "invalid_union": {
      const expected = issue.errors.map((branch) => typeName(String((branch[0] as { expected?: string }).expected)));
      const names = [...new Set(expected)].join(" or ");
      if (value === undefined) return `missing key ${where}: expected ${names}`;
      return `invalid value for ${where}: expected ${names}, got ${describeValue(value)}`;
    }
    default:
      return `invalid value for ${where}: ${issue.message}`;
  }
}

/**
 * Replaces a union failure by the failures of the branch that matched the value's
 * shape (the one without a type mismatch at its root), so `extends = [{gti = "x"}]`
 * reports the unknown key instead of "invalid input".
 */
function flatten(issues: readonly Issue[], prefix: PropertyKey[]): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const branch = issue.errors.find((b) => !b.some((i) => i.code === "invalid_type" && i.path.length === 0));
      if (branch) {
        out.push(...flatten(branch, path));
        continue;
      }
    }
    out.push({ ...issue, path } as Issue);
  }
  return out;
}

/** `lint.python.ruff.select[1]`, with segments that are not bare TOML keys in single quotes (`per-file-ignores.'src/**'`). */
export function displayPath(path: KeyPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {
      const key = /^[A-Za-z0-9_-]+$/.test(segment) ? segment : `'${segment}'`;
      out += out === "" ? key : `.${key}`;
    }
  }
  return out;
}

function typeName(expected: string): string {
  const names: Record<string, string> = {
    string: "a string",
    number: "a number",
    int: "an integer",
    boolean: "a boolean",
    array: "an array",
    object: "a table",
    record: "a table",
  };
  return names[expected] ?? expected;
}

/** How a TOML value reads in a message: `a string ("x")`, `an integer (5)`, `a table`. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return `a string (${JSON.stringify(value)})`;
  if (typeof value === "boolean") return `a boolean (${value})`;
  if (typeof value === "number" || typeof value === "bigint") {
    return `${Number.isInteger(Number(value)) ? "an integer" : "a float"} (${value})`;
  }
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a date-time";
  if (value && typeof value === "object") return "a table";
  return String(value);
}

function valueAt(data: unknown, path: KeyPath): unknown {
  let node = data;
  for (const segment of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** The keys a strict table at `path` accepts, sorted. */
export function allowedKeys(schema: z.ZodType, path: KeyPath): string[] {
  const node = schemaAt(schema, path);
  if (!node) return [];
  const def = node._zod.def;
  if (def.type === "union") {
    return [...new Set(def.options.flatMap((o: AnySchema) => allowedKeys(o, [])))].sort() as string[];
  }
  if (def.type === "object") return Object.keys(def.shape).sort();
  if (def.type === "record") {
    const key = unwrap(def.keyType);
    if (key._zod.def.type === "enum") return Object.values(key._zod.def.entries).map(String).sort();
  }
  return [];
}

/** The (unwrapped) schema that validates the value at `path`, if the path leads anywhere. */
function schemaAt(schema: z.ZodType, path: KeyPath): AnySchema | undefined {
  let node: AnySchema = unwrap(schema);
  for (const segment of path) {
    node = child(node, segment);
    if (!node) return undefined;
  }
  return node;
}

function child(node: AnySchema, segment: string | number): AnySchema | undefined {
  const def = node._zod.def;
  switch (def.type) {
    case "object":
      return def.shape[segment] ? unwrap(def.shape[segment]) : def.catchall ? unwrap(def.catchall) : undefined;
    case "record":
      return unwrap(def.valueType);
    case "array":
      return unwrap(def.element);
    case "union":
      for (const option of def.options) {
        const found = child(unwrap(option), segment);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

function unwrap(node: AnySchema): AnySchema {
  for (;;) {
    const def = node._zod.def;
    if (["optional", "default", "nullable", "catch", "readonly", "prefault", "nonoptional"].includes(def.type)) {
      node = def.innerType;
    } else if (def.type === "pipe") node = def.in;
    else return node;
  }
}
