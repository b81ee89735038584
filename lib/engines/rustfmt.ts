/**
 * rustfmt — Rust formatting, host tool (`rustfmt` on PATH, usually from rustup),
 * fed the file on stdin: `rustfmt --emit stdout --edition 2021`.
 *
 * - Tier: host (absent → files are skipped with "rustfmt not found on PATH",
 *   never reported as formatted). Languages: Rust (format only; clippy runs in the
 *   whole-project phase).
 * - `[defaults] line_length` → `max_width`, `indent_width` → `tab_spaces`,
 *   `line_ending` → `newline_style` (Unix / Windows / Auto); `final_newline` is
 *   applied to the output.
 * - `[fmt.rust.rustfmt]` keys: `edition` ("2015" | "2018" | "2021" | "2024",
 *   default "2021"), `style_edition`, and any other rustfmt option as written in
 *   `rustfmt.toml` (e.g. `hard_tabs = true`, `use_small_heuristics = "Max"`),
 *   passed with `--config`. `rustfmt.toml` files are not read (an empty config file
 *   is given with `--config-path`): poly.toml is the one configuration, so results
 *   do not depend on files outside the cache key.
 * - A syntax error is an errored record with rustfmt's line and column.
 *
 * Example: `fn main(){let x=1;}` → `fn main() {\n    let x = 1;\n}`.
 *
 * @module
 */
import { join } from "node:path";
import { finishText } from "./_layout.ts";
import { runHost } from "./_host.ts";
import { UNIFORM_KEYS } from "./_settings.ts";
import { EngineError, type EngineInstance, type EngineSettings, type EngineSpec } from "./types.ts";

let emptyConfig: Promise<string> | undefined;

/** An empty rustfmt.toml in a private temporary directory (once per process). */
function emptyConfigPath(): Promise<string> {
  emptyConfig ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "poly-rustfmt-" });
    const path = join(dir, "rustfmt.toml");
    await Deno.writeTextFile(path, "");
    return path;
  })();
  return emptyConfig;
}

function tomlValue(v: unknown): string {
  return typeof v === "string" ? v : String(v);
}

/** rustfmt's arguments for one file's settings (without `--config-path`). */
export function rustfmtArgs(settings: EngineSettings): string[] {
  const d = settings.defaults;
  const edition = tomlValue(settings.tool.edition ?? "2021");
  const config: Record<string, unknown> = {
    max_width: d.line_length,
    newline_style: d.line_ending === "crlf" ? "Windows" : d.line_ending === "auto" ? "Auto" : "Unix",
  };
  if (d.indent_width) config.tab_spaces = d.indent_width;
  for (const [k, v] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(k) && k !== "edition") config[k] = v;
  const list = Object.entries(config).map(([k, v]) => `${k}=${tomlValue(v)}`).join(",");
  return ["--emit", "stdout", "--edition", edition, "--config", list];
}

/** The rustfmt engine. */
export const rustfmt: EngineSpec = {
  id: "rustfmt",
  tier: "host",
  lintLanguages: [],
  formatLanguages: ["rust"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: "rustfmt (host)",
  defaultEnabled: true,
  hostProgram: "rustfmt",
  moduleUrls: () => Promise.resolve([]),
  load(): Promise<EngineInstance> {
    return Promise.resolve({
      async format(file, settings) {
        const args = [...rustfmtArgs(settings), "--config-path", await emptyConfigPath()];
        const run = await runHost("rustfmt", args, { stdin: file.text });
        if (run.code !== 0) {
          const first = run.stderr.split("\n").find((l) => l.startsWith("error")) ?? run.stderr.trim().split("\n")[0];
          const pos = /--> <stdin>:(\d+):(\d+)/.exec(run.stderr);
          const title = first?.replace(/^error(\[\w+\])?: /, "") ?? `exit ${run.code}`;
          if (pos) {
            const line = Number(pos[1]);
            const column = Number(pos[2]);
            throw new EngineError(`rustfmt: syntax error at ${line}:${column}: ${title}`, { line, column });
          }
          throw new EngineError(`rustfmt: ${title}`);
        }
        return finishText(run.stdout, file.text, settings.defaults);
      },
    });
  },
};
