/**
 * What a Python console script runs, found from files — so that the version of a host tool installed as one
 * (flake8, black: `#!/usr/bin/python3` from Debian, a virtual environment's `bin/python` from pip, pipx's) can be
 * remembered instead of asked every run (lib/identity/engines.ts asks a script every run, and such a run is never
 * replayed: ~0.3 s of every `poly lint` in a repository that lints with flake8).
 *
 * Such a script is a few lines that import the tool; what it reports is decided by the interpreter its first line
 * names and by the packages found on that interpreter's `sys.path` — the tool itself and, for flake8, its plug-ins,
 * which it finds through their distributions' metadata there. Installing, upgrading or removing a package changes the
 * folder it is installed in (a `*.dist-info` folder added, renamed or removed), as does a `.pth` file that adds a
 * folder; so the script's version is remembered under {@link PythonScript.context}: the interpreter's stat, the
 * stat of every folder on its `sys.path` and of its user site folder (present or not), and the variables that change
 * `sys.path`. `sys.path` itself is asked of the interpreter ({@link sysPath}) only when that memo misses.
 *
 * Not recognised (the caller asks the script every run): a first line naming no Python interpreter, or one that is
 * itself a script (pyenv's and asdf's shims, which pick a version from files and variables of their own), pip's
 * `/bin/sh` preamble for interpreter paths too long for a first line, and Windows (its launchers are executables).
 *
 * @module
 */
import { basename, isAbsolute } from "node:path";
import { findExecutable, isScript } from "../fs/executable.ts";
import { env } from "../paths/mod.ts";
import { runHost } from "../engines/host.ts";

/** Variables that change an interpreter's `sys.path` (`HOME` through the user site folder). */
export const PYTHON_PATH_ENV = ["PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONNOUSERSITE", "HOME"] as const;

/** A Python script's interpreter, as its first line names it. */
export interface PythonScript {
  /** The interpreter as named (a virtual environment's `bin/python` is a link; its path is what makes it one). */
  named: string;
  /** The interpreter's file, links resolved. */
  real: string;
  /** The interpreter's options on the first line (`-s`, `-I`, `-E`), which change `sys.path` too. */
  flags: string[];
}

const INTERPRETER = /^python(\d+(\.\d+)*)?$/;

/**
 * The interpreter `script` (a file, links resolved) runs under, when its first line names a Python interpreter
 * that is a program rather than a script: `#!/usr/bin/python3`, `#!/venv/bin/python -s`, or
 * `#!/usr/bin/env python3` (found on `PATH`). Undefined otherwise.
 */
export function pythonScript(script: string): PythonScript | undefined {
  const words = firstLine(script)?.match(/^#!\s*(.*)$/)?.[1].trim().split(/\s+/);
  if (!words?.length || Deno.build.os === "windows") return undefined;
  const [program, ...flags] = basename(words[0]) === "env"
    ? [findExecutable(words[1] ?? "") ?? "", ...words.slice(2)]
    : words;
  if (!isAbsolute(program) || !INTERPRETER.test(basename(program)) || flags.some((f) => !f.startsWith("-"))) {
    return undefined;
  }
  try {
    const real = Deno.realPathSync(program);
    return isScript(real) ? undefined : { named: program, real, flags };
  } catch {
    return undefined;
  }
}

/** The first line of a file (at most 512 bytes), undefined when it cannot be read. */
function firstLine(path: string): string | undefined {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path);
    const head = new Uint8Array(512);
    const n = file.readSync(head) ?? 0;
    return new TextDecoder().decode(head.subarray(0, n)).split(/\r?\n/)[0];
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}

/** What the interpreter prints: the absolute folders of its `sys.path`, then its user site folder when enabled. */
const PROBE = "import json, os, site, sys\n" +
  "print(json.dumps([p for p in sys.path if os.path.isabs(p)]" +
  " + ([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])))";

/**
 * The folders the interpreter finds packages in (its `sys.path`, the user site folder whether or not it exists yet),
 * asked of it in this environment; undefined when it cannot tell. (The folder of the script itself, first on the
 * script's own `sys.path`, is a folder of programs, not of distributions.)
 */
export async function sysPath(python: PythonScript): Promise<string[] | undefined> {
  try {
    // By path, as lib/engines/host.ts runs shipped executables: Deno's run permission names programs.
    const run = await runHost("sh", ["-c", 'exec "$0" "$@"', python.named, ...python.flags, "-c", PROBE], {
      name: basename(python.named),
      timeoutMs: 30_000,
    });
    const paths: unknown = run.code === 0 ? JSON.parse(run.stdout) : undefined;
    return Array.isArray(paths) && paths.every((p) => typeof p === "string") ? paths : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a remembered version of a script under `python` holds for: the interpreter (as named, its file's stat), its
 * options, each of `paths` with its stat (or `-` when absent) and the {@link PYTHON_PATH_ENV} variables' values.
 * Each stat is a read of the run's (lib/fs/read_log.ts): a replayed run is not replayed after a package changes.
 */
export function context(python: PythonScript, paths: readonly string[]): string {
  const lines = [`${python.named} ${python.flags.join(" ")}`.trim(), `${python.real} ${stamp(python.real)}`];
  for (const name of PYTHON_PATH_ENV) lines.push(`${name}=${JSON.stringify(env(name) ?? null)}`);
  for (const path of paths) lines.push(`${path} ${stamp(path)}`);
  return lines.join("\n");
}

function stamp(path: string): string {
  try {
    const info = Deno.statSync(path);
    return `${info.ino ?? ""}:${info.size}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return "-";
  }
}
