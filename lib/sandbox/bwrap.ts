/**
 * The one bubblewrap argument builder, used by the fleet (agent CLIs) and the
 * gateway (stdio upstreams). It is pure: everything it needs comes in a
 * {@link SandboxSpec} of plain values (golden-tested in tests/sandbox).
 *
 * Inside a sandbox it builds: the system paths read-only (merged-/usr links kept
 * as links); `/proc`, `/dev`, a private `/tmp` and `/run`; an empty tmpfs at the
 * real HOME; then the spec's binds in order, the working folder last (read-only or
 * read-write); then a tmpfs over each of poly's own homes (state: poly.db and
 * gateway.key; cache) that a bind above would expose; then the binds that live
 * inside those homes on purpose (a stdio upstream's private home). PID, IPC, UTS
 * (and, where possible, cgroup) namespaces are private, the network is shared (unless `offline`);
 * `--die-with-parent` takes every process inside with bwrap (killing bwrap kills
 * the whole tree) and `--new-session` detaches the terminal; the environment is
 * cleared and rebuilt from the spec.
 *
 * @module
 */
import { sep } from "node:path";
import { compareText } from "../report/sort.ts";

/** A system path: bound read-only, or recreated as the same relative symlink (merged /usr). */
export interface SystemEntry {
  path: string;
  symlink?: string;
}

/** A host path bound at the same path inside the sandbox. */
export interface Bind {
  path: string;
  rw: boolean;
}

/** Everything {@link bwrapArgs} needs; plain data. */
export interface SandboxSpec {
  /** The real HOME path: an empty tmpfs is mounted there. */
  home: string;
  system: SystemEntry[];
  /** Bound after the empty HOME, in order (auth files, toolchains, program folders, extra binds). */
  binds: Bind[];
  /** The working folder: bound last, and the command runs there. */
  workspace: string;
  readOnly: boolean;
  /**
   * poly's own state and cache homes. Each one a bind (or the workspace, or a system path) would
   * expose is covered by an empty tmpfs after every bind; the others are hidden already.
   */
  hide: string[];
  /** Bound after the hidden homes: what the sandbox keeps inside them on purpose (read-write). */
  own?: string[];
  env: Record<string, string>;
  /** No network inside (a network namespace of its own): for what needs none, such as a linter. */
  offline?: boolean;
}

/** Whether `path` is `dir` or lies below it. */
export function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The hidden homes a bind (or the workspace, or a system path) would expose: a tmpfs goes over each. */
export function exposedHomes(spec: SandboxSpec): string[] {
  const sources = [
    ...spec.system.filter((s) => s.symlink === undefined).map((s) => s.path),
    ...spec.binds.map((b) => b.path),
    spec.workspace,
  ];
  return [...new Set(spec.hide)].filter((h) => sources.some((s) => isUnder(h, s) || isUnder(s, h)));
}

/** The bwrap argument vector (without the bwrap binary, ending before `--` and the command). */
export function bwrapArgs(spec: SandboxSpec): string[] {
  const args: string[] = [];
  for (const entry of spec.system) {
    if (entry.symlink !== undefined) args.push("--symlink", entry.symlink, entry.path);
    else args.push("--ro-bind", entry.path, entry.path);
  }
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run");
  args.push("--tmpfs", spec.home);
  for (const b of spec.binds) args.push(b.rw ? "--bind" : "--ro-bind", b.path, b.path);
  args.push(spec.readOnly ? "--ro-bind" : "--bind", spec.workspace, spec.workspace);
  for (const dir of exposedHomes(spec)) args.push("--tmpfs", dir);
  for (const dir of spec.own ?? []) args.push("--bind", dir, dir);
  args.push("--chdir", spec.workspace);
  args.push("--clearenv");
  for (const [k, v] of Object.entries(spec.env).sort(([a], [b]) => compareText(a, b))) args.push("--setenv", k, v);
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (spec.offline) args.push("--unshare-net");
  args.push("--die-with-parent", "--new-session");
  return args;
}

/**
 * Whether a working folder holds the home directory: binding it (after the empty HOME) would expose
 * every file there, so both sandboxes refuse such a folder.
 */
export function workspaceHoldsHome(workspace: string, home: string): boolean {
  return isUnder(home, workspace);
}
