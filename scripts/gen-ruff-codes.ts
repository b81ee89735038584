/**
 * Writes `lib/engines/ruff/_codes.json`: each ruff rule's name and code, from `ruff rule --all --output-format json` of
 * the ruff wheel at poly's pin (installed on demand into the parity cache, tests/bench/parity.ts). Under `preview`,
 * ruff's WebAssembly build names each finding by its rule's name (`undefined-export`) where `ruff check` reports its
 * code (`F822`): the engine takes the code back from this table (lib/engines/ruff/mod.ts).
 *
 *   deno run -q -P=test scripts/gen-ruff-codes.ts           # write it
 *   deno run -q -P=test scripts/gen-ruff-codes.ts --check   # exit 1 when the committed file is stale
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { pipRuff } from "../tests/bench/parity.ts";
import { RUFF_VERSION } from "../lib/engines/ruff/mod.ts";
import { writeGenerated } from "./_generated.ts";

const target = fromFileUrl(new URL("../lib/engines/ruff/_codes.json", import.meta.url));
const bin = await pipRuff(RUFF_VERSION);
const out = await new Deno.Command(bin, { args: ["rule", "--all", "--output-format", "json"], stdout: "piped" })
  .output();
if (!out.success) throw new Error(`${bin} rule --all failed`);
const rules = JSON.parse(new TextDecoder().decode(out.stdout)) as { name: string; code: string | null }[];
const codes = Object.fromEntries(
  rules.filter((r) => r.code).map((r) => [r.name, r.code!]).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
);
const text = JSON.stringify({ version: RUFF_VERSION, codes }, null, 2) + "\n";

await writeGenerated(target, text, Deno.args.includes("--check"), '"deno run -q -P=test scripts/gen-ruff-codes.ts"');
