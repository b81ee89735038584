/**
 * `poly engines [--format human|json|toon]`: every engine with its tier,
 * languages, upstream version and module digest, and every host tool found
 * (with version and path) or missing. `poly doctor` (doctor.ts) checks what
 * one repository needs instead.
 *
 * @module
 */
import { command, constant, message, object } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import type { EnginesDocument } from "../../identity/engines.ts";
import { formatOption, writeDocument } from "../output.ts";

const FORMATS = ["human", "json", "toon"] as const;

const options = object({
  cmd: constant("engines"),
  format: formatOption(FORMATS),
});

const description =
  message`List every engine (tier, languages, upstream version, digest) and every host tool, found or missing.`;

/** `poly engines`. */
export const enginesCommand = defineCommand<{ cmd: string; format: typeof FORMATS[number] }>({
  parser: command("engines", options, { brief: message`List engines and host tools.`, description }),
  async run(value, io) {
    const { enginesDocument } = await import("../../identity/engines.ts");
    const doc = await enginesDocument();
    if (value.format === "json" || value.format === "toon") await writeDocument(io, doc, value.format);
    else await io.stdout(renderEngines(doc));
    return 0;
  },
});

function pad(text: string, width: number): string {
  return text.length >= width ? text + " " : text + " ".repeat(width - text.length);
}

/** The human listing of {@link EnginesDocument}. */
export function renderEngines(doc: EnginesDocument): string {
  const rows = doc.engines.map((e) => [
    e.id + (e.default_enabled ? "" : " (opt-in)"),
    e.tier,
    e.lint.join(", ") || "-",
    e.format.join(", ") || "-",
    e.digest ? e.digest.slice(0, 12) : e.available ? `host ${e.program_version ?? ""}`.trim() : `missing: ${e.program}`,
    e.upstream,
  ]);
  const head = ["engine", "tier", "lint", "format", "digest", "upstream"];
  const widths = head.map((h, i) => Math.min(34, Math.max(h.length, ...rows.map((r) => r[i].length)) + 1));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]))).join(" ").trimEnd();
  const out = [line(head), ...rows.map(line), "", "host tools"];
  for (const t of doc.host_tools) {
    const state = t.found ? `${t.version ?? "found"}  ${t.path}` : "missing (not on PATH)";
    out.push(`  ${pad(t.name, 14)} ${state}  [${t.used_by.join(", ")}]`);
  }
  return out.join("\n") + "\n";
}
