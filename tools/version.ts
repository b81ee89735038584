/**
 * `version` — which binary is serving this session: version, build id, channel,
 * executable, pid, uptime, whether what it runs from is still the file(s) on disk
 * (`current`), and the full engine → version map (host toolchains excluded). The
 * one tool that answers even when the server is out of date.
 *
 * @module
 */
import { z } from "zod";
import { checkFingerprint, processFingerprint, uptimeSeconds } from "../lib/identity/fingerprint.ts";
import { EngineIdentity, Identity } from "../lib/report/schema.ts";
import { formatParam } from "./_run.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";

/** The document `version` returns. */
export const VersionDocument = z.object({
  version: z.string(),
  build_id: z.string(),
  channel: z.enum(["release", "dev"]),
  /** The compiled binary, or main.ts when run from source. */
  executable: z.string(),
  pid: z.number().int(),
  uptime_s: z.number().min(0),
  /** Whether the executable (or every source module) is still the one this process started from. */
  current: z.boolean(),
  /** What the server runs from: a compiled executable, or source modules (how many files are watched). */
  running_from: z.object({ kind: z.enum(["executable", "modules"]), files: z.number().int().min(0) }),
  /** When not current: the first file that changed, and how. */
  changed: z.object({ path: z.string(), change: z.enum(["deleted", "replaced", "modified"]) }).optional(),
  /** SHA-256 over the engine map. */
  engines_digest: z.string(),
  /** Every compiled-in engine: the upstream version it wraps and a digest of its module bytes. */
  engines: z.record(z.string(), EngineIdentity),
  poly: Identity,
});

/** The `version` document. */
export type VersionDocument = z.infer<typeof VersionDocument>;

/** The `version` tool. */
export const versionTool = defineTool({
  name: "version",
  title: "Which poly is serving",
  description:
    "Which poly binary is serving this session: version, build id, channel, executable, pid, uptime, whether that executable (or source tree) is still the one on disk (current), and the engine → version map. Works even when other tools refuse because the server is out of date. Mirrors `poly --version`.",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: { format: formatParam },
  outputSchema: VersionDocument,
  async handler(args) {
    const { identity } = await import("../lib/identity/mod.ts");
    const poly = await identity();
    const print = processFingerprint();
    const drift = checkFingerprint(print);
    const doc: VersionDocument = {
      version: poly.version,
      build_id: poly.build_id,
      channel: poly.channel,
      executable: poly.executable,
      pid: poly.pid,
      uptime_s: uptimeSeconds(print),
      current: drift === undefined,
      running_from: { kind: print.kind, files: print.entries.length },
      ...(drift ? { changed: drift } : {}),
      engines_digest: poly.engines_digest,
      engines: poly.engines,
      poly,
    };
    return { structured: doc, format: args.format ?? "json" };
  },
});
