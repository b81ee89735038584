/**
 * Contract tests: every argument vector poly's engine adapters build (every
 * engine, resume and not, read-only and not, sandboxed and not, web, model,
 * effort, persona, images — what delegate, explore, read_slice, web_lookup,
 * fan_out, generate_image and follow_up ask for) is run through the REAL agent
 * CLI's argument parser. The CLIs are installed from npm into a cache folder
 * this test controls (`$POLY_AGENT_CLIS`, default `<cache>/poly-tests/agent-clis`)
 * and run with an empty HOME, no account and no network (bubblewrap
 * `--unshare-net` when it works, else a proxy on a closed port): an
 * authentication, connection or "no such session" failure passes — the
 * arguments were taken — and an argument error fails. A CLI that cannot be
 * installed is skipped with the reason. Also: poly's fake CLIs reject what the
 * real ones reject.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ADAPTERS, type BuildOptions } from "../../../lib/fleet/engines/mod.ts";
import type { EngineName } from "../../../lib/fleet/types.ts";
import { REPO } from "../../_helpers/cli.ts";
import { tempDir } from "../../_helpers/temp.ts";
import { GROUPS, killTree } from "../../../lib/process/group.ts";

interface Cli {
  engine: EngineName;
  /** npm package and the binary it installs; or why it cannot be installed from a registry. */
  pkg?: string;
  bin?: string;
  unavailable?: string;
  /** What the CLI's parser prints when it rejects an argument vector. */
  rejects: RegExp;
  model: string;
}

const CLIS: Cli[] = [
  {
    engine: "codex",
    pkg: "@openai/codex",
    bin: "codex",
    // clap
    rejects:
      /^error: (unexpected argument|unrecognized subcommand|invalid value|a value is required|the argument '[^']*' cannot be used|the following required arguments)/m,
    model: "gpt-5.5",
  },
  {
    engine: "claude",
    pkg: "@anthropic-ai/claude-code",
    bin: "claude",
    // commander
    rejects:
      /^error: (unknown option|too many arguments|option '[^']*' argument missing|missing required argument|unknown command)/m,
    model: "sonnet",
  },
  {
    engine: "opencode",
    pkg: "opencode-ai",
    bin: "opencode",
    // yargs: a rejected vector prints the command's usage (and sometimes a reason) instead of running
    rejects:
      /^opencode run \[message\.\.\]$|^(Unknown arguments?|Not enough arguments|Missing required argument|Invalid values):/m,
    model: "openrouter/inception/mercury-2",
  },
  {
    engine: "grok",
    unavailable:
      "the grok CLI poly drives (--single, --output-format json) is not published on npm (@vibe-kit/grok-cli is another program)",
    rejects: /^error:/m,
    model: "grok-4",
  },
  {
    engine: "cursor",
    unavailable: "cursor-agent installs only from cursor.com's install script, not from a registry",
    rejects: /^error:/m,
    model: "auto",
  },
];

const CACHE = Deno.env.get("POLY_AGENT_CLIS") ??
  join(Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"), "poly-tests", "agent-clis");

/** Installs the CLIs into {@link CACHE} once; returns why each one is unavailable (absent: installed). */
async function install(): Promise<Map<EngineName, string>> {
  const missing = new Map<EngineName, string>();
  const wanted = CLIS.filter((c) => c.pkg);
  const present = async (c: Cli) =>
    await Deno.stat(join(CACHE, "node_modules", ".bin", c.bin!)).then(() => true, () => false);
  const absent: Cli[] = [];
  for (const c of wanted) if (!(await present(c))) absent.push(c);
  if (absent.length > 0) {
    await Deno.mkdir(CACHE, { recursive: true });
    try {
      const out = await new Deno.Command("npm", {
        args: ["install", "--no-audit", "--no-fund", "--prefix", CACHE, ...absent.map((c) => c.pkg!)],
        stdout: "piped",
        stderr: "piped",
        // Without a registry npm retries for minutes: give up and skip instead.
        signal: AbortSignal.timeout(240_000),
      }).output();
      if (!out.success) {
        const why = new TextDecoder().decode(out.stderr).trim().split("\n").at(-1);
        for (const c of absent) missing.set(c.engine, `npm install ${c.pkg} failed: ${why}`);
      }
    } catch (error) {
      for (const c of absent) missing.set(c.engine, `npm is not available: ${(error as Error).message}`);
    }
  }
  for (const c of CLIS) {
    if (c.unavailable) missing.set(c.engine, c.unavailable);
    else if (!missing.has(c.engine) && !(await present(c))) missing.set(c.engine, `${c.pkg} installed no "${c.bin}"`);
  }
  return missing;
}

/** Whether bubblewrap can give a process a network namespace of its own here. */
function bwrapWorks(): boolean {
  try {
    return new Deno.Command("bwrap", {
      args: ["--dev-bind", "/", "/", "--unshare-net", "--unshare-pid", "--die-with-parent", "true"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** Every distinct argument vector an adapter builds, with the options behind it. */
function vectors(cli: Cli, image: string): { label: string; args: string[] }[] {
  const seen = new Map<string, string>();
  const a = ADAPTERS[cli.engine];
  for (const resume of [undefined, "0199a213-81c0-7800-8aa1-bbab2a035a53"]) {
    for (const readOnly of [false, true]) {
      for (const sandboxed of [true, false]) {
        for (const web of [false, true]) {
          for (const extras of [false, true]) {
            const o: BuildOptions = {
              prompt: extras ? "--help is broken: look at src/app.ts" : "Fix the failing test in src/app.ts",
              readOnly,
              sandboxed,
              web,
              ...(resume ? { resume } : {}),
              ...(extras
                ? {
                  model: cli.model,
                  effort: "high",
                  system: 'You are a strict "reviewer".\nCite lines.',
                  ...(a.capabilities.image ? { images: [image] } : {}),
                }
                : {}),
            };
            const args = a.buildArgs(o);
            const key = JSON.stringify(args);
            if (!seen.has(key)) {
              seen.set(
                key,
                [
                  resume ? "resume" : "new",
                  readOnly ? "read-only" : "full access",
                  sandboxed ? "sandboxed" : "sandbox off",
                  ...(web ? ["web"] : []),
                  ...(extras ? ["model, effort, persona, images"] : []),
                ].join(", "),
              );
            }
          }
        }
      }
    }
  }
  return [...seen].map(([key, label]) => ({ label, args: JSON.parse(key) }));
}

/** How long a CLI may run before it counts as having taken its arguments (it is then killed). */
const PARSE_WINDOW_MS = 8_000;

/** Runs `bin args` with no account and no network; returns its output, or undefined when it was still running. */
async function runOnce(
  bin: string,
  args: string[],
  home: string,
  isolate: boolean,
  windowMs = PARSE_WINDOW_MS,
): Promise<{ out: string; code: number }> {
  const env: Record<string, string> = {
    PATH: `${join(CACHE, "node_modules", ".bin")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    HOME: home,
    NO_COLOR: "1",
    CI: "1",
    // Without a network namespace: every connection goes to a closed port.
    ...(isolate
      ? {}
      : { HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9", ALL_PROXY: "http://127.0.0.1:9" }),
  };
  const argv = isolate
    ? [
      "bwrap",
      "--dev-bind",
      "/",
      "/",
      "--unshare-net",
      "--unshare-pid",
      "--die-with-parent",
      "--chdir",
      home,
      "--",
      bin,
      ...args,
    ]
    : [bin, ...args];
  // In a process group of its own: an npm launcher (`codex` is a node script) starts the real binary, which killing
  // the launcher alone would leave running, holding the output open (without bwrap's PID namespace to end it).
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: home,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: GROUPS,
  }).spawn();
  const timer = setTimeout(() => void killTree(child), windowMs);
  const out = await child.output();
  clearTimeout(timer);
  const text = new TextDecoder();
  return { out: `${text.decode(out.stdout)}\n${text.decode(out.stderr)}`, code: out.code };
}

const unavailable = await install();
const isolate = bwrapWorks();

for (const cli of CLIS) {
  const reason = unavailable.get(cli.engine);
  if (reason) console.warn(`skipped: ${cli.engine} contract: ${reason}`);
  Deno.test({
    name: `every argument vector poly builds for ${cli.engine} passes the real ${cli.bin ?? cli.engine} parser`,
    ignore: reason !== undefined,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const home = await tempDir({ prefix: `poly-contract-${cli.engine}-` });
      const image = join(home, "input.png");
      // A PNG signature is enough: only the parser has to take the path.
      await Deno.writeFile(image, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const cases = vectors(cli, image);
      const rejected: string[] = [];
      // A few at a time: each may run up to the parse window.
      for (let i = 0; i < cases.length; i += 4) {
        await Promise.all(
          cases.slice(i, i + 4).map(async ({ label, args }) => {
            const { out } = await runOnce(cli.bin!, args, home, isolate);
            const hit = out.match(cli.rejects);
            if (hit) {
              const line = out.split("\n").find((l) => cli.rejects.test(l)) ?? hit[0];
              rejected.push(`${label}: ${JSON.stringify(args)}\n    ${line.trim()}`);
            }
          }),
        );
      }
      assert.deepEqual(rejected, [], `the real ${cli.bin} rejected:\n${rejected.join("\n")}`);
      // The check can fail: a vector the CLI does not know is rejected. The CLI exits by itself then, so it gets
      // as long as it needs to start (a loaded machine can take more than the parse window to start a large CLI).
      const { out } = await runOnce(
        cli.bin!,
        [...cases[0].args.slice(0, 1), "--poly-no-such-flag", "x"],
        home,
        isolate,
        60_000,
      );
      assert.match(out, cli.rejects, `an unknown flag is an argument error the check recognises for ${cli.engine}`);
    },
  });
}

Deno.test("the fake codex rejects what the real one rejects: no -s after exec resume", async () => {
  const fake = join(REPO, "fixtures", "fleet", "bin", "codex");
  const home = await tempDir();
  const run = (args: string[]) =>
    new Deno.Command(fake, { args, cwd: home, env: { HOME: home }, stdout: "piped", stderr: "piped" }).output();
  const old = await run(["exec", "resume", "--json", "-s", "read-only", "--", "0199a213", "hi"]);
  assert.equal(old.code, 2);
  assert.match(new TextDecoder().decode(old.stderr), CLIS[0].rejects);
  // What poly builds for a read-only resume without its sandbox passes the fake too.
  const args = ADAPTERS.codex.buildArgs({
    prompt: "hi",
    resume: "0199a213",
    readOnly: true,
    sandboxed: false,
    web: false,
  });
  const now = await run(args);
  assert.doesNotMatch(new TextDecoder().decode(now.stderr), CLIS[0].rejects);
});
