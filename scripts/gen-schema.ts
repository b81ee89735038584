/**
 * Writes `schema/report.schema.json` from the zod report schema
 * (`deno run -q -P=build scripts/gen-schema.ts`, or `deno task schema`).
 * With `--check`, writes nothing and exits 1 when the committed file is stale.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { reportJsonSchemaText } from "../lib/report/json_schema.ts";
import { writeGenerated } from "./_generated.ts";

const target = fromFileUrl(new URL("../schema/report.schema.json", import.meta.url));
const text = reportJsonSchemaText();

await writeGenerated(target, text, Deno.args.includes("--check"), '"deno task schema"');
