/**
 * The imports of a TypeScript file, read with ast-grep's TypeScript parser (so
 * comments and strings are never taken for imports): for the architecture
 * tests that check who imports whom and what a process loads.
 *
 * @module
 */
import { Lang, parse } from "@ast-grep/napi";

/** One import's specifier, and how: a static import or re-export, one of types only (erased), or an `import()`. */
export interface Import {
  specifier: string;
  kind: "static" | "type" | "dynamic";
}

/** Every import in `text` (the source of a `.ts` file, or of a `.tsx` one when `tsx`). */
export function importsIn(text: string, tsx = false): Import[] {
  const root = parse(tsx ? Lang.Tsx : Lang.TypeScript, text).root();
  const out: Import[] = [];
  for (const node of root.findAll({ rule: { any: [{ kind: "import_statement" }, { kind: "export_statement" }] } })) {
    const source = node.field("source");
    if (!source) continue;
    const typeOnly = node.children().some((c) => c.kind() === "type");
    out.push({ specifier: source.text().slice(1, -1), kind: typeOnly ? "type" : "static" });
  }
  for (const node of root.findAll({ rule: { kind: "call_expression", has: { field: "function", kind: "import" } } })) {
    const arg = node.field("arguments")?.children().find((c) => c.kind() === "string");
    if (arg) out.push({ specifier: arg.text().slice(1, -1), kind: "dynamic" });
  }
  return out;
}
