/**
 * `poly cache stats [--format human|json|toon] [--config PATH]` and
 * `poly cache clean [--namespace lint|fmt|rules|fix] [--format ...] [--config PATH]`:
 * the result cache of the repository containing the current directory.
 *
 * @module
 */
import { choice, command, constant, message, object, option, optional, or } from "../_optique.ts";
import { pathValue } from "../_path.ts";
import { defineCommand } from "../command.ts";
import { type CacheCleanDocument, type CacheStatsDocument, type Namespace, NAMESPACES } from "../../cache/types.ts";
import { formatOption, writeDocument } from "../output.ts";

const FORMATS = ["human", "json", "toon"] as const;
type Format = typeof FORMATS[number];
const format = formatOption(FORMATS);
const config = optional(option("--config", pathValue("PATH"), { description: message`Use this poly.toml` }));

const stats = command("stats", object({ action: constant("stats" as const), format, config }), {
  brief: message`Entries, bytes, format version and recent hit rates per namespace.`,
});
const clean = command(
  "clean",
  object({
    action: constant("clean" as const),
    namespace: optional(
      option("--namespace", choice(NAMESPACES), { description: message`Only this namespace` }),
    ),
    format,
    config,
  }),
  { brief: message`Remove cached results (all, or one namespace).` },
);

type CacheValue =
  | { action: "stats"; format: Format; config?: string }
  | { action: "clean"; namespace?: Namespace; format: Format; config?: string };

/** `poly cache`. */
export const cacheCommand = defineCommand<CacheValue>({
  parser: command("cache", or(stats, clean), { brief: message`Inspect or clean the result cache.` }),
  async run(value, io) {
    const lib = await import("../../cache/mod.ts");
    const doc = value.action === "stats"
      ? await lib.cacheStats({ cwd: io.cwd, config: value.config })
      : await lib.cacheClean({ cwd: io.cwd, config: value.config, namespace: value.namespace });
    if (value.format === "json" || value.format === "toon") await writeDocument(io, doc, value.format);
    else {
      await io.stdout(
        value.action === "stats" ? renderStats(doc as CacheStatsDocument) : renderClean(doc as CacheCleanDocument),
      );
    }
    return 0;
  },
});

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Human rendering of `poly cache stats`. */
export function renderStats(doc: CacheStatsDocument): string {
  if (!doc.enabled) return `result cache: disabled ([cache] enabled = false)\nanchor: ${doc.anchor}\n`;
  const out = [`result cache: ${doc.path}`, `anchor: ${doc.anchor}`, `format version: ${doc.format_version}`, ""];
  for (const ns of doc.namespaces) {
    out.push(`  ${ns.namespace.padEnd(6)} ${String(ns.entries).padStart(8)} entries  ${size(ns.bytes).padStart(10)}`);
  }
  out.push(
    `  ${"total".padEnd(6)} ${String(doc.total.entries).padStart(8)} entries  ${
      size(doc.total.bytes).padStart(10)
    }  (file ${size(doc.file_bytes)})`,
  );
  if (doc.replays) {
    const { runs, bytes } = doc.replays;
    out.push("", `check runs kept for replay: ${runs} (${size(bytes)}), every repository's in this cache home`);
  }
  if (doc.recent_runs.length > 0) {
    out.push("", "recent runs:");
    for (const r of doc.recent_runs) {
      const total = r.hits + r.misses;
      const rate = total ? Math.round((100 * r.hits) / total) : 0;
      out.push(`  ${r.at}  ${r.namespace.padEnd(6)} ${r.hits} hits, ${r.misses} misses (${rate}% hits)`);
    }
  }
  if (doc.remote) {
    const r = doc.remote;
    out.push(
      "",
      `remote cache: ${r.url}`,
      `  ${r.hits} hits, ${r.misses} misses, ${r.refusals} refused, ${r.failures} failed requests`,
      `  ${r.rows_in} results in (${size(r.bytes_in)}), ${r.rows_out} out (${size(r.bytes_out)})`,
    );
    if (r.last_warning) out.push(`  last warning: ${r.last_warning}`);
  }
  return out.join("\n") + "\n";
}

/** Human rendering of `poly cache clean`. */
export function renderClean(doc: CacheCleanDocument): string {
  return `removed ${doc.removed} entries (${size(doc.bytes)}) from ${doc.namespaces.join(", ")}${
    doc.path ? ` in ${doc.path}` : ""
  }\n`;
}
