/**
 * Writes `schema/report.schema.json` from the zod report schema
 * (`deno run -q -P=build scripts/gen-schema.ts`, or `deno task schema`).
 * With `--check`, writes nothing and exits 1 when the committed file is stale.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { reportJsonSchemaText } from "../lib/report/json_schema.ts";

const target = fromFileUrl(new URL("../schema/report.schema.json", import.meta.url));
const text = reportJsonSchemaText();

if (Deno.args.includes("--check")) {
  let current = "";
  try {
    current = await Deno.readTextFile(target);
  } catch { /* missing counts as stale */ }
  if (current !== text) {
    console.error(`${target} is stale: run "deno task schema" and commit the result`);
    Deno.exit(1);
  }
} else {
  await Deno.mkdir(fromFileUrl(new URL("../schema/", import.meta.url)), { recursive: true });
  await Deno.writeTextFile(target, text);
  console.error(`wrote ${target}`);
}
