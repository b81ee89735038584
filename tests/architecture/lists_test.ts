/**
 * Lists with one source: engine names, member roles, tool levels, proposal and
 * operation statuses, cache namespaces. Anywhere else in the program (lib/,
 * tools/, tui/) an array literal of three or more of one list's strings, or
 * one holding the whole list and more, is a copy that will drift: it must be
 * derived from the source instead (imported, spread, filtered). Read with
 * ast-grep's TypeScript parser.
 */
import { ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Lang, parse } from "@ast-grep/napi";
import { ENGINES } from "../../lib/fleet/types.ts";
import { ROLES, TOOL_LEVELS } from "../../lib/access/levels.ts";
import { PROPOSAL_STATUSES } from "../../lib/access/proposals.ts";
import { OP_STATUSES } from "../../lib/gateway/schemas.ts";
import { NAMESPACES } from "../../lib/cache/types.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Each list, and the file that defines it. */
const SOURCES: { name: string; file: string; values: readonly string[] }[] = [
  { name: "ENGINES", file: "lib/fleet/types.ts", values: ENGINES },
  { name: "ROLES", file: "lib/access/levels.ts", values: ROLES },
  { name: "TOOL_LEVELS", file: "lib/access/levels.ts", values: TOOL_LEVELS },
  { name: "PROPOSAL_STATUSES", file: "lib/access/proposals.ts", values: PROPOSAL_STATUSES },
  { name: "OP_STATUSES", file: "lib/gateway/schemas.ts", values: OP_STATUSES },
  { name: "NAMESPACES", file: "lib/cache/types.ts", values: NAMESPACES },
];

/** The program's `.ts` and `.tsx` files, repository-relative. */
function programFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(REPO, dir))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...programFiles(path));
    else if (/\.tsx?$/.test(e.name)) out.push(path);
  }
  return out;
}

/** Array literals made of string literals only, with their line. */
function stringArrays(file: string): { line: number; values: string[] }[] {
  const root = parse(file.endsWith(".tsx") ? Lang.Tsx : Lang.TypeScript, Deno.readTextFileSync(join(REPO, file)))
    .root();
  return root.findAll({ rule: { kind: "array" } }).flatMap((node) => {
    const items = node.children().filter((c) => ![",", "[", "]", "comment"].includes(String(c.kind())));
    if (items.length === 0 || items.some((c) => c.kind() !== "string")) return [];
    return [{ line: node.range().start.line + 1, values: items.map((c) => c.text().slice(1, -1)) }];
  });
}

Deno.test("no list with one source is written out again in lib/, tools/ or tui/", () => {
  const copies: string[] = [];
  let arrays = 0;
  for (const file of ["lib", "tools", "tui"].flatMap(programFiles)) {
    for (const array of stringArrays(file)) {
      arrays++;
      for (const source of SOURCES) {
        if (file === source.file || array.values.length < 3) continue;
        const within = array.values.every((v) => source.values.includes(v));
        const whole = source.values.length >= 3 && source.values.every((v) => array.values.includes(v));
        if (within || whole) {
          copies.push(`${relative(".", file)}:${array.line}: [${array.values.join(", ")}] copies ${source.name}`);
        }
      }
    }
  }
  ok(arrays > 100, `${arrays} string arrays read`);
  ok(copies.length === 0, `derive these from their source:\n  ${copies.join("\n  ")}`);
});
