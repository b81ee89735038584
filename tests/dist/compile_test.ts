/**
 * The compile task: one permission list for the dev task and the binary, the
 * embedding plan, the base-runtime message (by running the real task with no
 * runtime to be had), and the command line.
 */
import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { DENO_JSON, REPO } from "../_helpers/cli.ts";
import { compileArgs, ENTRY, parseCli, PERMISSION_FLAGS, UsageError } from "../../scripts/compile.ts";
import {
  DEV_ONLY_PACKAGES,
  excludesFor,
  type InstalledPackage,
  isEmbedded,
  knownPackages,
  missingEmbeds,
  parseEmbeddedListing,
  parseStoreEntry,
  requiredEmbeds,
  RUNTIME_INCLUDES,
  storeDir,
} from "../../scripts/_embed.ts";
import { failureCause, isBaseRuntimeFailure, runtimeMissingMessage } from "../../scripts/_denort.ts";
import { binaryName, hostTarget, isTarget, nativePlatformOf, TARGETS } from "../../scripts/_targets.ts";
import { sourceCommand } from "../../lib/identity/code.ts";
import { tempDir } from "../_helpers/temp.ts";

const denoJson = JSON.parse(await Deno.readTextFile(DENO_JSON));

/** Flags that grant or select permissions. */
function permissionFlags(tokens: readonly string[]): string[] {
  return tokens.filter((t) =>
    /^(-P|--permission-set)(=.*)?$/.test(t) || /^--(allow|deny|ignore)-/.test(t) || /^-[ARWNESI]+$/.test(t)
  );
}

Deno.test("deno.json: the dev task and the compiled binary use one permission list (-P, the default set)", () => {
  const dev = denoJson.tasks.poly.command.split(/\s+/);
  deepEqual(dev.slice(0, 2), ["deno", "run"]);
  // node_modules/ is installed by the task's dependency, then used as it is (not re-verified at every start).
  ok(dev.includes("--node-modules-dir=manual"));
  deepEqual(denoJson.tasks.poly.dependencies, ["deps"]);
  equal(denoJson.tasks.deps, "deno install -q");
  equal(dev.at(-1), "main.ts");
  deepEqual(permissionFlags(dev), ["-P"], "the dev task selects deno.json's default permission set, nothing else");
  deepEqual([...PERMISSION_FLAGS], ["-P"]);
  for (const target of TARGETS) {
    const args = compileArgs({ target, output: `dist/${binaryName(target)}` });
    equal(args[0], "compile");
    equal(args.at(-1), ENTRY);
    equal(ENTRY, dev.at(-1), "the binary is built from the dev task's entry module");
    deepEqual(permissionFlags(args), permissionFlags(dev), "compile flags carry the dev task's permission flags");
  }
  const set = denoJson.permissions.default;
  ok(set && typeof set === "object", "permissions.default exists");
  for (const key of ["read", "write", "env", "run"]) ok(key in set, `permissions.default.${key}`);
});

Deno.test("the dev task, the source command and the compiled binary keep wasm engines off V8's optimizing tier", () => {
  // Tiering wasm up in every worker at once set a large run's peak memory (docs/discovery-and-reports.md).
  const v8 = (tokens: readonly string[]) => tokens.filter((t) => t.startsWith("--v8-flags"));
  const want = [
    "--v8-flags=--no-wasm-dynamic-tiering,--no-wasm-tier-up,--max-semi-space-size=2,--wasm-max-mem-pages=32768",
  ];
  deepEqual(v8(denoJson.tasks.poly.command.split(/\s+/)), want, "deno task poly");
  deepEqual(v8(sourceCommand(REPO)), want, "sourceCommand() (the tests, poly daemon, the installed launcher)");
  deepEqual(v8(compileArgs({ target: TARGETS[0], output: "dist/x" })), want, "deno compile");
});

Deno.test("deno.json: compile and compile:all run scripts/compile.ts under the build permission set", () => {
  equal(denoJson.tasks.compile, "deno run -q -P=build --no-prompt scripts/compile.ts");
  equal(denoJson.tasks["compile:all"], "deno run -q -P=build --no-prompt scripts/compile.ts --all");
});

Deno.test("scripts/: the build scripts add no permission flag of their own to deno compile", async () => {
  for await (const e of Deno.readDir(join(REPO, "scripts"))) {
    if (!e.name.endsWith(".ts")) continue;
    const text = (await Deno.readTextFile(join(REPO, "scripts", e.name)))
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    ok(!/["'`]--allow-|["'`]-A["'`]|["'`]--permission-set|["'`]-P=/.test(text), `${e.name} passes a permission flag`);
  }
});

Deno.test("compileArgs() names the target and output, the run-time includes and the excludes", () => {
  const args = compileArgs({
    target: "aarch64-apple-darwin",
    output: "dist/poly-aarch64-apple-darwin",
    excludes: ["node_modules/.deno/x@1/node_modules/x"],
    check: false,
  });
  const pairs = (flag: string) => args.flatMap((a, i) => a === flag ? [args[i + 1]] : []);
  deepEqual(pairs("--target"), ["aarch64-apple-darwin"]);
  deepEqual(pairs("--output"), ["dist/poly-aarch64-apple-darwin"]);
  deepEqual(pairs("--include"), [...RUNTIME_INCLUDES]);
  ok(pairs("--include").includes("lib/run/worker.ts") && pairs("--include").includes("lib/rules/builtin"));
  deepEqual(pairs("--exclude"), ["node_modules/.deno/x@1/node_modules/x"]);
  ok(args.includes("--no-check"));
  ok(!compileArgs({ target: "x86_64-pc-windows-msvc", output: "o" }).includes("--no-check"));
  ok(!args.some((a) => a === "--exclude-unused-npm" || a === "--bundle"), "npm packages are embedded whole");
});

Deno.test("run-time includes: every file lib/ reaches through import.meta.url or sourcePath() is embedded", async () => {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(e.name)) {
        const text = await Deno.readTextFile(path);
        for (const m of text.matchAll(/new URL\(\s*["'`]([^"'`]+)["'`]\s*,\s*import\.meta\.url\s*\)/g)) {
          const url = new URL(m[1], `file://${path}`);
          found.push(url.pathname.slice(REPO.length + 1).replace(/\/$/, ""));
        }
        // A file named from the checkout's root (lib/identity/code.ts), wherever the module itself was loaded from.
        for (const m of text.matchAll(/sourcePath\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) found.push(m[1].replace(/\/$/, ""));
      }
    }
  };
  for (const d of ["lib", "tools", "tui"]) await walk(join(REPO, d)).catch(() => {});
  ok(found.includes("lib/run/worker.ts") && found.includes("lib/rules/builtin"), `scan found ${found.join(", ")}`);
  for (const path of found) {
    // main.ts and the repository root are only reached when running from source.
    if (path === "" || path === "main.ts") continue;
    ok(
      RUNTIME_INCLUDES.some((inc) => path === inc || path.startsWith(inc + "/")),
      `${path} is read at run time but not in RUNTIME_INCLUDES (scripts/_embed.ts)`,
    );
  }
  for (const inc of RUNTIME_INCLUDES) await Deno.stat(join(REPO, inc));
});

Deno.test("excluded packages: dev-only ones are never imported by the program", async () => {
  const sources: string[] = [join(REPO, "main.ts")];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (/\.(ts|tsx|js|mjs)$/.test(e.name)) sources.push(path);
    }
  };
  for (const d of ["lib", "tools", "tui"]) await walk(join(REPO, d)).catch(() => {});
  for (const path of sources) {
    const text = await Deno.readTextFile(path);
    for (const pkg of DEV_ONLY_PACKAGES) {
      const pattern = new RegExp(
        `(from\\s+|import\\(\\s*|resolve\\(\\s*|require\\(\\s*)["'](npm:)?${pkg.replace(/[/.]/g, "\\$&")}`,
      );
      ok(!pattern.test(text), `${path} loads ${pkg}, which the compiled binary leaves out`);
    }
  }
});

Deno.test("excludesFor() drops dev-only packages and other platforms' natives, keeps the target's", () => {
  const pkg = (entry: string): InstalledPackage => {
    const p = parseStoreEntry(entry)!;
    return { ...p, dir: `node_modules/.deno/${entry}/node_modules/${p.name}` };
  };
  const packages = [
    "@ast-grep+napi@0.51.1",
    "@ast-grep+napi-linux-x64-gnu@0.51.1",
    "@ast-grep+napi-linux-x64-musl@0.51.1",
    "@ast-grep+napi-darwin-arm64@0.51.1",
    "@biomejs+biome@2.5.14",
    "@biomejs+cli-linux-x64@2.5.14",
    "@oxlint+binding-win32-x64-msvc@1.94.0",
    "ink-testing-library@4.0.0",
    "zod@4.6.7",
  ].map(pkg);
  const kept = (t: typeof TARGETS[number]) => {
    const ex = new Set(excludesFor(packages, t));
    return packages.filter((p) => !ex.has(p.dir)).map((p) => p.name);
  };
  deepEqual(kept("x86_64-unknown-linux-gnu"), [
    "@ast-grep/napi",
    "@ast-grep/napi-linux-x64-gnu",
    "@biomejs/biome",
    "@biomejs/cli-linux-x64",
    "zod",
  ]);
  deepEqual(kept("aarch64-apple-darwin"), ["@ast-grep/napi", "@ast-grep/napi-darwin-arm64", "@biomejs/biome", "zod"]);
  deepEqual(kept("x86_64-pc-windows-msvc"), [
    "@ast-grep/napi",
    "@biomejs/biome",
    "@oxlint/binding-win32-x64-msvc",
    "zod",
  ]);
  deepEqual(parseStoreEntry("react-reconciler@0.33.0_react@19.3.1"), { name: "react-reconciler", version: "0.33.0" });
  deepEqual(nativePlatformOf("@oxlint/binding-linux-arm64-musl"), { os: "linux", cpu: "arm64", abi: "musl" });
  equal(nativePlatformOf("@types/node"), undefined);
});

Deno.test("knownPackages() foresees the target natives a cross build installs, so they can be excluded", async () => {
  const root = await tempDir({ prefix: "poly-store-" });
  try {
    const install = async (name: string, version: string, json: Record<string, unknown> = {}) => {
      const dir = join(root, storeDir(name, version));
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify({ name, version, ...json }));
    };
    await install("@ast-grep/napi", "0.51.1", {
      optionalDependencies: {
        "@ast-grep/napi-linux-x64-gnu": "0.51.1",
        "@ast-grep/napi-darwin-arm64": "0.51.1",
        "@ast-grep/napi-linux-arm64-musl": "^0.51.1",
      },
    });
    await install("@ast-grep/napi-linux-x64-gnu", "0.51.1");
    await install("@biomejs/biome", "2.5.14", { optionalDependencies: { "@biomejs/cli-darwin-arm64": "2.5.14" } });
    const known = (await knownPackages(root)).map((p) => p.dir);
    ok(known.includes(storeDir("@ast-grep/napi-darwin-arm64", "0.51.1")), "foreseen from an exact version");
    ok(!known.some((d) => d.includes("linux-arm64-musl")), "a range gives no version to foresee");
    const packages = await knownPackages(root);
    ok(excludesFor(packages, "x86_64-unknown-linux-gnu").includes(storeDir("@ast-grep/napi-darwin-arm64", "0.51.1")));
    const forMac = excludesFor(packages, "aarch64-apple-darwin");
    ok(!forMac.includes(storeDir("@ast-grep/napi-darwin-arm64", "0.51.1")), "the target's addon is kept");
    ok(
      !forMac.includes(storeDir("@biomejs/cli-darwin-arm64", "2.5.14")),
      "biome's command line for the target is kept",
    );
    ok(
      excludesFor(packages, "x86_64-unknown-linux-gnu").includes(storeDir("@biomejs/cli-darwin-arm64", "2.5.14")),
      "and left out of other targets",
    );
    ok(forMac.includes(storeDir("@ast-grep/napi-linux-x64-gnu", "0.51.1")));
    const required = await requiredEmbeds(root, "aarch64-apple-darwin");
    ok(required.includes(storeDir("@ast-grep/napi-darwin-arm64", "0.51.1")), "and required in the binary");
    ok(required.includes(storeDir("@biomejs/cli-darwin-arm64", "2.5.14")), "biome's target executable too");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the embedded-files check reads deno compile's listing and names what is missing", async () => {
  const output = await Deno.readTextFile(join(REPO, "fixtures", "dist", "compile-output.txt"));
  const listing = parseEmbeddedListing(output);
  ok(listing && listing.length > 100);
  ok(isEmbedded(listing, "lib/run/worker.ts"), "a listed file");
  ok(isEmbedded(listing, "lib/rules/builtin/python/x.yml"), "inside a collapsed directory");
  ok(isEmbedded(listing, "lib/agents/claude_md.ts"), "inside a collapsed directory");
  ok(
    isEmbedded(
      listing,
      "node_modules/.deno/@ast-grep+napi-linux-x64-gnu@0.51.1/node_modules/@ast-grep/napi-linux-x64-gnu",
    ),
  );
  ok(
    !isEmbedded(listing, "node_modules/.deno/ink-testing-library@4.0.0/node_modules/ink-testing-library"),
    "an excluded package is listed empty, not embedded",
  );
  ok(!isEmbedded(listing, "lib/run/absent.ts"));
  deepEqual(missingEmbeds(listing, ["lib/run/worker.ts", "lib/nope.ts"]), ["lib/nope.ts"]);
  equal(parseEmbeddedListing("Check main.ts\nerror: boom\n"), undefined);
});

Deno.test("requiredEmbeds() asks for the target's native addons of the packages that declare them", async () => {
  const host = hostTarget();
  if (!isTarget(host)) return;
  const required = await requiredEmbeds(REPO, host);
  for (const inc of RUNTIME_INCLUDES) ok(required.includes(inc));
  const triple = host.startsWith("x86_64-unknown-linux") ? "linux-x64-gnu" : undefined;
  if (triple) {
    ok(required.some((p) => p.endsWith(`@ast-grep/napi-${triple}`)), "ast-grep's addon for the target");
    ok(!required.some((p) => p.includes("napi-linux-x64-musl")), "not another libc's");
  }
  const other = TARGETS.find((t) => t !== host && t.includes("darwin"))!;
  const foreign = await requiredEmbeds(REPO, other);
  ok(foreign.some((p) => p.includes("napi-darwin")), "a cross build requires the target's addon too");
});

Deno.test("the base-runtime failure is recognised and explained with both ways to supply it", () => {
  const dns = `Check main.ts
Compile main.ts to dist/poly
Download https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip
error: Writing deno compile executable to temporary file 'dist/poly.tmp-1'

Caused by:
    0: Setting up base binary.
    1: error sending request for url (https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip): client error (Connect): dns error: failed to lookup address information: Name or service not known
    2: client error (Connect)
    3: dns error
    4: failed to lookup address information: Name or service not known

Stack backtrace:
   0: <unknown>
`;
  ok(isBaseRuntimeFailure(dns));
  ok(!isBaseRuntimeFailure("error: TS2322 [ERROR]: Type 'string' is not assignable to type 'number'."));
  equal(
    failureCause(dns),
    "error sending request for url: client error (Connect): dns error: failed to lookup address information: Name or service not known",
  );
  const message = runtimeMissingMessage({
    target: "x86_64-unknown-linux-gnu",
    host: "x86_64-unknown-linux-gnu",
    version: "2.9.6",
    denoDir: "/cache/deno",
    cause: failureCause(dns),
  });
  match(message, /Deno's base runtime \(denort 2\.9\.6\) is not available/);
  match(message, /DENORT_BIN=\/path\/to\/denort deno task compile/);
  match(message, /place denort-x86_64-unknown-linux-gnu\.zip .* in \/cache\/deno\/dl\/release\/v2\.9\.6\//);
  const cross = runtimeMissingMessage({
    target: "aarch64-apple-darwin",
    host: "x86_64-unknown-linux-gnu",
    version: "2.9.6",
    denoDir: "/cache/deno",
    denortBin: "/opt/denort",
    cause: "x",
  });
  ok(!cross.includes("DENORT_BIN=/path/to/denort"), "DENORT_BIN is not offered for another platform");
  match(cross, /DENORT_BIN is used for this machine's target/);
});

Deno.test("parseCli(): the host target by default, --all for the five, unknown targets refused", () => {
  deepEqual(parseCli([], "x86_64-unknown-linux-gnu").targets, ["x86_64-unknown-linux-gnu"]);
  deepEqual(parseCli(["--all"], "x86_64-unknown-linux-gnu").targets, [...TARGETS]);
  deepEqual(parseCli(["--target", "aarch64-apple-darwin", "--target=x86_64-apple-darwin"]).targets, [
    "aarch64-apple-darwin",
    "x86_64-apple-darwin",
  ]);
  equal(parseCli(["--out-dir", "out", "--no-check"]).outDir, "out");
  equal(parseCli(["--no-check"]).check, false);
  throws(() => parseCli(["--target", "riscv64-unknown-linux-gnu"]), UsageError);
  throws(() => parseCli(["--frobnicate"]), UsageError);
  throws(() => parseCli([], "aarch64-pc-windows-msvc"), /not released for this machine/);
});

/** A loopback port with nothing listening (connections are refused). */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function runCompileTask(args: string[], env: Record<string, string>) {
  const proxy = `http://127.0.0.1:${closedPort()}`;
  const base = Deno.env.toObject();
  delete base.DENORT_BIN;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--config", DENO_JSON, "compile", ...args],
    cwd: REPO,
    env: { ...base, NO_COLOR: "1", HTTPS_PROXY: proxy, HTTP_PROXY: proxy, https_proxy: proxy, NO_PROXY: "", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("deno task compile with no base runtime stops with a message saying how to supply it", async () => {
  const host = hostTarget();
  if (!isTarget(host)) return;
  const denoDir = await tempDir({ prefix: "poly-empty-deno-dir-" });
  const outDir = await tempDir({ prefix: "poly-compile-out-" });
  const stampPath = join(REPO, "lib", "identity", "_stamp.ts");
  const stampBefore = await Deno.readTextFile(stampPath);
  try {
    const run = await runCompileTask(["--out-dir", outDir], { DENO_DIR: denoDir });
    equal(run.code, 1, run.stderr);
    match(
      run.stderr,
      new RegExp(`Cannot build poly for ${host}: Deno's base runtime \\(denort [0-9.]+\\) is not available`),
    );
    match(
      run.stderr,
      /downloading https:\/\/dl\.deno\.land\/release\/v[0-9.]+\/denort-.*\.zip failed: .*(refused|error)/i,
    );
    match(run.stderr, /DENORT_BIN=\/path\/to\/denort deno task compile/);
    ok(run.stderr.includes(`place denort-${host}.zip`), run.stderr);
    ok(run.stderr.includes(join(denoDir, "dl", "release", `v${Deno.version.deno}`) + "/"), run.stderr);
    match(run.stderr, /Nothing was built\./);
    ok(!run.stderr.includes("Stack backtrace"), "no raw deno error");
    deepEqual(await Array.fromAsync(Deno.readDir(outDir)), [], "no binary");
    equal(await Deno.readTextFile(stampPath), stampBefore, "the stamp file is untouched");
  } finally {
    await Deno.remove(denoDir, { recursive: true }).catch(() => {});
    await Deno.remove(outDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("deno task compile names a DENORT_BIN that does not exist", async () => {
  const outDir = await tempDir({ prefix: "poly-compile-out-" });
  try {
    const missing = join(outDir, "no-such-denort");
    const run = await runCompileTask(["--out-dir", outDir], { DENORT_BIN: missing });
    equal(run.code, 1, run.stderr);
    ok(run.stderr.includes(`DENORT_BIN=${missing} could not be used: no such file`), run.stderr);
    match(run.stderr, /Nothing was built\./);
  } finally {
    await Deno.remove(outDir, { recursive: true }).catch(() => {});
  }
});
