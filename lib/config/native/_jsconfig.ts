/**
 * A JavaScript or TypeScript configuration file (`prettier.config.js`, `.prettierrc.cjs`, ...) read without running
 * it: parsed with ast-grep's tree-sitter grammars, and taken only when what it exports is written out as literal
 * values — `module.exports = { ... }` or `export default { ... }`, directly or through a `const` declared in the file,
 * with strings, numbers, booleans, `null`, arrays and objects of them (TypeScript's `satisfies` and `as` are read
 * through). Comments, directives, imports and type declarations are passed over. Anything whose value only running
 * the file would tell — a call, a spread, a variable from elsewhere, a statement that changes the object — is a
 * {@link ConfigError} naming its line and column, as poly never runs a repository's code to configure itself.
 *
 * @example
 * ```ts
 * staticExport("module.exports = { semi: false }\n", "prettier.config.js", "prettier.config.js", { instead: "..." });
 * // { semi: false, singleQuote: true }
 * ```
 *
 * @module
 */
import { Lang, parse, type SgNode } from "@ast-grep/napi";
import { ConfigError } from "../../errors/mod.ts";

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** Something in the file whose value poly cannot know without running it. */
class NotLiteral extends Error {
  constructor(readonly node: SgNode, what: string) {
    super(what);
  }
}

/** Statements that neither run code nor change the exported value. */
const PASSED_OVER = new Set([
  "comment",
  "hash_bang_line",
  "empty_statement",
  "import_statement",
  "type_alias_declaration",
  "interface_declaration",
]);

/** What the file is read for. */
export interface StaticExportOptions {
  /** The tool's package, whose `defineConfig` returns what it is given (`import { defineConfig } from "oxfmt"`). */
  definer?: string;
  /** What to do instead, said when the file cannot be read ("write it as .prettierrc.json, or ..."). */
  instead: string;
}

/**
 * The object a configuration file exports, read as written (`name`: the file's name, which picks the grammar;
 * `display`: the path shown in errors). Throws a {@link ConfigError} when it is not literal values.
 */
export function staticExport(
  text: string,
  name: string,
  display: string,
  { definer, instead }: StaticExportOptions,
): Record<string, unknown> {
  const lang = /\.[cm]?ts$/.test(name) ? Lang.TypeScript : Lang.JavaScript;
  const root = parse(lang, text).root();
  const consts = new Map<string, SgNode>();
  const identities = definer ? definers(root, definer) : new Set<string>();
  let exported: SgNode | undefined;
  let scope = consts;
  try {
    for (const statement of root.children()) {
      const kind = String(statement.kind());
      if (PASSED_OVER.has(kind)) continue;
      if (kind === "lexical_declaration" || kind === "variable_declaration") {
        declare(statement, consts);
        continue;
      }
      if (kind === "expression_statement") {
        const e = statement.namedChildren()[0];
        if (e?.kind() === "string") continue; // a directive: "use strict"
        if (e?.kind() === "assignment_expression" && isModuleExports(e.field("left"))) {
          exported = e.field("right") ?? undefined;
          scope = new Map(consts); // what is declared below is not yet there when the export is evaluated
          continue;
        }
        throw new NotLiteral(statement, "a statement that runs code");
      }
      if (kind === "export_statement") {
        const parts = statement.children();
        const declaration = statement.field("declaration");
        if (declaration && (declaration.kind() === "lexical_declaration")) {
          declare(declaration, consts);
          continue;
        }
        const at = parts.findIndex((c) => c.kind() === "default");
        if (at >= 0) {
          exported = parts.slice(at + 1).find((c) => c.isNamed() && c.kind() !== "comment");
          scope = new Map(consts);
          continue;
        }
        if (parts.some((c) => c.kind() === "export_clause") && !parts.some((c) => c.kind() === "from")) continue;
        throw new NotLiteral(statement, "an export poly cannot read");
      }
      throw new NotLiteral(statement, "a statement that runs code");
    }
    if (!exported) {
      throw new NotLiteral(root, "it exports nothing poly can read (`module.exports =` or `export default`)");
    }
    const value = literal(exported, scope, identities, 0);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new NotLiteral(exported, "its export is not an object");
    }
    return value;
  } catch (e) {
    if (!(e instanceof NotLiteral)) throw e;
    const { start } = e.node.range();
    const excerpt = text.split(/\r?\n/)[start.line]?.trim();
    throw new ConfigError(
      { file: display, line: start.line + 1, column: start.column + 1 },
      `${e.message}: poly reads a JavaScript configuration only as literal values, without running it: ${instead}`,
      excerpt,
    );
  }
}

/** The local names of `defineConfig` imported from `tool`'s own package (`import { defineConfig } from "oxfmt"`). */
function definers(root: SgNode, tool: string): Set<string> {
  const out = new Set<string>();
  for (const statement of root.children()) {
    if (statement.kind() !== "import_statement") continue;
    const source = statement.field("source");
    if (!source || stringValue(source) !== tool) continue;
    for (const spec of statement.findAll({ rule: { kind: "import_specifier" } })) {
      if (spec.field("name")?.text() === "defineConfig") out.add((spec.field("alias") ?? spec.field("name"))!.text());
    }
  }
  return out;
}

function declare(declaration: SgNode, consts: Map<string, SgNode>): void {
  for (const d of declaration.children()) {
    if (d.kind() !== "variable_declarator") continue;
    const name = d.field("name");
    const value = d.field("value");
    if (name?.kind() === "identifier" && value) consts.set(name.text(), value);
  }
}

function isModuleExports(left: SgNode | null): boolean {
  return left?.kind() === "member_expression" && left.field("object")?.text() === "module" &&
    left.field("property")?.text() === "exports";
}

/** The value `node` is written as; a name declared in the file is followed (`depth` bounds a cycle). */
function literal(node: SgNode, consts: Map<string, SgNode>, identities: Set<string>, depth: number): Value {
  if (depth > 32) throw new NotLiteral(node, "a value that refers to itself");
  const named = () => node.namedChildren().filter((c) => c.kind() !== "comment");
  switch (node.kind()) {
    case "parenthesized_expression":
    case "satisfies_expression":
    case "as_expression":
      return literal(named()[0], consts, identities, depth + 1);
    case "identifier":
    case "shorthand_property_identifier": {
      const declared = consts.get(node.text());
      if (!declared) throw new NotLiteral(node, `"${node.text()}", whose value is not written in the file`);
      return literal(declared, consts, identities, depth + 1);
    }
    case "string":
      return stringValue(node);
    case "template_string":
      if (node.namedChildren().some((c) => c.kind() === "template_substitution")) {
        throw new NotLiteral(node, "a template string with a substitution");
      }
      return node.text().slice(1, -1);
    case "number": {
      const n = Number(node.text());
      if (!Number.isFinite(n)) throw new NotLiteral(node, `the number ${node.text()}`);
      return n;
    }
    case "unary_expression": {
      const [op, operand] = node.children();
      if (op.text() === "-" && operand?.kind() === "number") return -Number(operand.text());
      throw new NotLiteral(node, "an expression");
    }
    case "call_expression": {
      // The tool's own `defineConfig({ ... })`, which returns what it is given.
      const args = node.field("arguments")?.namedChildren().filter((c) => c.kind() !== "comment") ?? [];
      const callee = node.field("function");
      if (callee?.kind() === "identifier" && identities.has(callee.text()) && args.length === 1) {
        return literal(args[0], consts, identities, depth + 1);
      }
      throw new NotLiteral(node, "a call");
    }
    case "true":
      return true;
    case "false":
      return false;
    case "null":
      return null;
    case "array":
      return named().map((c) => {
        if (c.kind() === "spread_element") throw new NotLiteral(c, "a spread");
        return literal(c, consts, identities, depth + 1);
      });
    case "object": {
      const out: { [key: string]: Value } = {};
      for (const member of named()) {
        if (member.kind() === "shorthand_property_identifier") {
          out[member.text()] = literal(member, consts, identities, depth + 1);
          continue;
        }
        if (member.kind() !== "pair") {
          throw new NotLiteral(member, member.kind() === "spread_element" ? "a spread" : "a method");
        }
        const key = member.field("key")!;
        const name = key.kind() === "string"
          ? stringValue(key)
          : key.kind() === "property_identifier" || key.kind() === "number"
          ? key.text()
          : undefined;
        if (name === undefined) throw new NotLiteral(key, "a computed key");
        out[name] = literal(member.field("value")!, consts, identities, depth + 1);
      }
      return out;
    }
    default:
      throw new NotLiteral(node, String(node.kind()).replaceAll("_", " "));
  }
}

/** A string literal's value: its fragments, and its escapes as JavaScript reads them. */
function stringValue(node: SgNode): string {
  let out = "";
  for (const part of node.namedChildren()) {
    if (part.kind() === "string_fragment") out += part.text();
    else if (part.kind() === "escape_sequence") out += unescapeSequence(part);
    else throw new NotLiteral(part, "a string poly cannot read");
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};

function unescapeSequence(node: SgNode): string {
  const body = node.text().slice(1);
  if (body in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[body];
  if (body === "\n" || body === "\r\n") return ""; // a line continuation
  const hex = /^(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]+)\})$/.exec(body);
  if (hex) return String.fromCodePoint(parseInt(hex[1] ?? hex[2] ?? hex[3], 16));
  if (body.length === 1) return body; // \' \" \\ \/ and the like
  throw new NotLiteral(node, `the escape ${node.text()}`);
}
