/**
 * `poly doctor`: a check of what THIS repository needs. The languages its files
 * are in decide the engines a run would use (under its poly.toml); its Cargo
 * workspaces and Go modules decide the whole-project jobs. Engines built into
 * poly are always there; a host program (shellcheck, go, rustfmt, cargo, ...)
 * is found on PATH or reported missing with how to install it. The whole-project
 * extras (cargo-sort, cargo-machete, cargo-deny) are optional: a run skips their
 * jobs with the reason.
 *
 * @example
 * ```ts
 * const doc = await doctor(Deno.cwd());
 * Deno.exit(doc.missing > 0 ? 1 : 0);
 * ```
 *
 * @module
 */
import { discover } from "../discover/mod.ts";
import { openConfig } from "../config/mod.ts";
import { ENGINES } from "../engines/registry.ts";
import type { EngineSpec, Language } from "../engines/types.ts";
import { hostVersion } from "../engines/host.ts";
import { isCargoSubcommand, which } from "../workspace/which.ts";
import { languageName, planFormat, planLint, planSkip } from "../run/plan.ts";
import { findProjects } from "../workspace/projects.ts";

/** How to install a host program, for the platforms poly runs on. */
export const INSTALL_HINTS: Readonly<Record<string, string>> = {
  shellcheck: "apt install shellcheck (Debian, Ubuntu); brew install shellcheck (macOS)",
  go: "apt install golang-go (Debian, Ubuntu); brew install go (macOS); or https://go.dev/dl/",
  rustfmt: "rustup component add rustfmt",
  cargo: "install Rust with rustup: https://rustup.rs",
  "cargo-clippy": "rustup component add clippy",
  "cargo-sort": "cargo install cargo-sort",
  "cargo-machete": "cargo install cargo-machete",
  "cargo-deny": "cargo install cargo-deny",
  node: "apt install nodejs (Debian, Ubuntu); brew install node (macOS)",
  black: "apt install black (Debian, Ubuntu); pip install black",
  flake8: "apt install flake8 (Debian, Ubuntu); pip install flake8",
};

/** One thing the repository needs, and whether this machine has it. */
export interface DoctorCheck {
  /** What needs it: a language ("Shell") or a project ("Cargo workspace crates/core"). */
  for: string;
  /** The engine or job ("shellcheck", "clippy"). */
  tool: string;
  /**
   * `ok`; `missing` (exit 1); `optional` (missing, and a run skips it with the reason); `skipped` (a run does not lint
   * or format the language here, and says why: a formatter poly does not run keeps its style, say).
   */
  status: "ok" | "missing" | "optional" | "skipped";
  /** What was found (`shellcheck 0.9.0`, `built in`) or what is missing (`cargo-deny is not on PATH`). */
  detail: string;
  /** How to install what is missing. */
  install?: string;
}

/** What `poly doctor` found. */
export interface DoctorDocument {
  /** The directory checked. */
  root: string;
  /** Files per language, commonest first. */
  languages: { language: Language; name: string; files: number }[];
  /** Cargo workspaces and Go modules, relative to `root`. */
  projects: { kind: "cargo" | "go"; dir: string }[];
  checks: DoctorCheck[];
  /** Checks with status `missing`: the exit code is 1 when any. */
  missing: number;
}

/** Finds what the repository at `cwd` needs and which of it this machine lacks. */
export async function doctor(cwd: string): Promise<DoctorDocument> {
  const configs = await openConfig({ cwd });
  const config = await configs.forDir(cwd);
  const candidates = await discover({
    cwd,
    paths: [],
    configFor: async (dir) => {
      const c = await configs.forDir(dir);
      return { excludes: c.excludes, forceExclude: c.data.discovery.force_exclude };
    },
  });
  const counts = new Map<Language, number>();
  for (const c of candidates) if (c.kind === "file") counts.set(c.language, (counts.get(c.language) ?? 0) + 1);
  const languages = [...counts].map(([language, files]) => ({ language, name: languageName(language), files }))
    .sort((a, b) => b.files - a.files || (a.name < b.name ? -1 : 1));

  const program = memoProgram();
  const checks: DoctorCheck[] = [];
  for (const { language, name } of languages) {
    const lint = planLint(language, config);
    const format = planFormat(language, config);
    const ids = new Set([...lint.engines, ...format.engines].map((e) => e.id));
    const specs = ENGINES.filter((e) => ids.has(e.id) && !e.crossCutting);
    const builtIn = specs.filter((e) => !e.hostProgram && e.tier !== "host").map((e) => e.id);
    if (builtIn.length > 0) checks.push({ for: name, tool: builtIn.join(", "), status: "ok", detail: "built in" });
    for (const spec of specs.filter((e) => e.hostProgram || e.tier === "host")) {
      const check = await hostCheck(name, spec.id, hostProgramOf(spec), "missing", program);
      // What else it needs here (the eslint engine: bubblewrap, the repository's ESLint installed).
      const settings = lint.engines.find((e) => e.id === spec.id)?.settings;
      const lacks = check.status === "ok" && settings ? await spec.unavailable?.(settings) : undefined;
      checks.push(
        lacks ? { for: name, tool: spec.id, status: "missing", detail: lacks.missing, install: lacks.install } : check,
      );
    }
    // What a run will not do for the language here, in the plan's words (nothing to install for it).
    for (const [job, plan] of [["lint", lint], ["format", format]] as const) {
      const skip = planSkip(plan);
      if (skip) checks.push({ for: name, tool: job, status: "skipped", detail: skip });
    }
  }

  const projects = await findProjects(cwd, config.excludes);
  // A whole-project tool switched off (`[tools.<name>] enabled = false`) is not needed.
  const on = (tool: string) => (config.data.tools[tool] as { enabled?: boolean } | undefined)?.enabled !== false;
  for (const p of projects) {
    const where = p.rel === "." ? "" : ` ${p.rel}`;
    if (p.kind === "go") {
      if (on("go-vet")) checks.push(await hostCheck(`Go module${where}`, "go vet", "go", "missing", program));
      continue;
    }
    const label = `Cargo workspace${where}`;
    if (on("clippy")) {
      const cargo = await hostCheck(label, "clippy", "cargo", "missing", program);
      checks.push(cargo.status === "ok" ? await hostCheck(label, "clippy", "cargo-clippy", "missing", program) : cargo);
    }
    for (const extra of ["cargo-sort", "cargo-machete", "cargo-deny"].filter(on)) {
      checks.push(await hostCheck(label, extra, extra, "optional", program));
    }
  }
  return {
    root: cwd,
    languages,
    projects: projects.map((p) => ({ kind: p.kind, dir: p.rel })),
    checks,
    missing: checks.filter((c) => c.status === "missing").length,
  };
}

function hostProgramOf(spec: EngineSpec): string {
  return spec.hostProgram ?? spec.id;
}

type ProgramLookup = (name: string) => Promise<{ path: string; version?: string } | undefined>;

/** Looks each program up once. */
function memoProgram(): ProgramLookup {
  const seen = new Map<string, Promise<{ path: string; version?: string } | undefined>>();
  return (name) => {
    let found = seen.get(name);
    if (!found) {
      found = (async () => {
        const path = which(name);
        if (!path) return undefined;
        const version = await hostVersion(name, name === "go" ? ["version"] : ["--version"]);
        return { path, ...(version ? { version } : {}) };
      })();
      seen.set(name, found);
    }
    return found;
  };
}

async function hostCheck(
  what: string,
  tool: string,
  name: string,
  absent: "missing" | "optional",
  lookup: ProgramLookup,
): Promise<DoctorCheck> {
  const found = await lookup(name);
  if (found) return { for: what, tool, status: "ok", detail: `${name} ${found.version ?? found.path}` };
  const skipped = absent === "optional" ? "; a run skips this job" : "";
  return {
    for: what,
    tool,
    status: absent,
    detail: `${name} is not on PATH${isCargoSubcommand(name) ? " or in $CARGO_HOME/bin" : ""}${skipped}`,
    install: INSTALL_HINTS[name] ?? `install ${name} and put it on PATH`,
  };
}

/** Words of `text` on lines of at most `width` columns (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The report for a person, at most `width` columns wide (80 by default). */
export function renderDoctor(doc: DoctorDocument, width = 80): string {
  const out: string[] = [`poly doctor: what ${doc.root} needs`, ""];
  const found = doc.languages.map((l) => `${l.name} (${l.files} ${l.files === 1 ? "file" : "files"})`);
  for (const p of doc.projects) found.push(`${p.kind === "cargo" ? "Cargo workspace" : "Go module"} ${p.dir}`);
  out.push(...wrap(`Found: ${found.length > 0 ? found.join(", ") : "no files poly checks"}`, width), "");
  const label = { ok: "ok", missing: "MISSING", optional: "optional", skipped: "skipped" } as const;
  const forWidth = Math.min(24, Math.max(0, ...doc.checks.map((c) => c.for.length)));
  const indent = 9 + forWidth + 2;
  for (const c of doc.checks) {
    const body = wrap(`${c.tool}: ${c.detail}`, width - indent);
    if (c.for.length > forWidth) {
      // A long project path gets a line of its own.
      out.push(`${label[c.status].padEnd(9)}${c.for}`, ...body.map((l) => " ".repeat(indent) + l));
    } else {
      const head = `${label[c.status].padEnd(9)}${c.for.padEnd(forWidth)}  `;
      out.push(head + body[0], ...body.slice(1).map((l) => " ".repeat(indent) + l));
    }
    if (c.install) {
      const hint = wrap(`install: ${c.install}`, width - indent - 2);
      out.push(...hint.map((l, i) => " ".repeat(indent + (i === 0 ? 0 : 2)) + l));
    }
  }
  if (doc.checks.length > 0) out.push("");
  out.push(
    doc.missing > 0
      ? `${doc.missing} missing: install ${doc.missing === 1 ? "it" : "them"}, then run poly doctor again.`
      : "Everything this repository needs is here.",
  );
  return out.map((l) => l.trimEnd()).join("\n") + "\n";
}
