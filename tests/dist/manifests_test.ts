/**
 * action.yml, .pre-commit-hooks.yaml and the workflows against their documented
 * shapes (zod schemas of the documented fields, strict: an unknown key is an
 * error), plus the cross-checks that keep them honest: expressions name real
 * inputs and steps, the hooks' file types match poly's languages, and CI runs
 * the documented test command.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { REPO } from "../_helpers/cli.ts";
import { ENGINES } from "../../lib/engines/registry.ts";
import { missing } from "../engines/_harness.ts";
import { tempDir } from "../_helpers/temp.ts";

async function yamlFile(rel: string): Promise<unknown> {
  return parse(await Deno.readTextFile(join(REPO, rel)));
}

// ---- GitHub Actions metadata (docs: "Metadata syntax for GitHub Actions") ----

const id = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/);
const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** The keys a step has in both composite actions and workflows. */
const stepKeys = {
  id: id.optional(),
  name: z.string().optional(),
  if: z.string().optional(),
  run: z.string().optional(),
  shell: z.string().optional(),
  uses: z.string().optional(),
  with: z.record(z.string(), scalar).optional(),
  env: z.record(z.string(), scalar).optional(),
  "working-directory": z.string().optional(),
  "continue-on-error": z.union([z.boolean(), z.string()]).optional(),
};

const compositeStep = z.strictObject(stepKeys).refine(
  (s) => (s.run === undefined) !== (s.uses === undefined),
  "a step has exactly one of run and uses",
)
  .refine((s) => s.run === undefined || s.shell !== undefined, "a run step of a composite action needs shell");

const actionSchema = z.strictObject({
  name: z.string().min(1),
  author: z.string().optional(),
  description: z.string().min(1),
  inputs: z.record(
    id,
    z.strictObject({
      description: z.string().min(1),
      required: z.boolean().optional(),
      default: z.string().optional(),
      deprecationMessage: z.string().optional(),
    }),
  ).optional(),
  outputs: z.record(id, z.strictObject({ description: z.string().min(1), value: z.string() })).optional(),
  runs: z.strictObject({ using: z.literal("composite"), steps: z.array(compositeStep).min(1) }),
  branding: z.strictObject({
    icon: z.string(),
    color: z.enum(["white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"]),
  }).optional(),
});

type Action = z.infer<typeof actionSchema>;

Deno.test("action.yml: a composite action in the documented metadata shape", async () => {
  const action = actionSchema.parse(await yamlFile("action.yml"));
  deepEqual(Object.keys(action.inputs ?? {}).sort(), [
    "args",
    "cache",
    "fmt",
    "sarif",
    "sarif-category",
    "shard",
    "version",
    "working-directory",
  ]);
  equal(action.inputs!.fmt.default, "false");
  equal(action.inputs!.sarif.default, "true");
  equal(action.inputs!.cache.default, "true");
});

Deno.test("action.yml: every expression names a declared input and an earlier step", async () => {
  const text = await Deno.readTextFile(join(REPO, "action.yml"));
  const action: Action = actionSchema.parse(parse(text));
  const inputs = new Set(Object.keys(action.inputs ?? {}));
  const stepIds = action.runs.steps.map((s) => s.id).filter((i) => i !== undefined);
  for (const m of text.matchAll(/inputs\.([A-Za-z0-9_-]+)/g)) ok(inputs.has(m[1]), `unknown input ${m[1]}`);
  action.runs.steps.forEach((step, index) => {
    const refs = JSON.stringify(step).matchAll(/steps\.([A-Za-z0-9_-]+)\./g);
    for (const m of refs) {
      const at = stepIds.indexOf(m[1]);
      ok(at >= 0, `unknown step ${m[1]}`);
      ok(action.runs.steps.findIndex((s) => s.id === m[1]) < index, `${m[1]} is referenced before it runs`);
    }
  });
  for (const m of text.matchAll(/steps\.([A-Za-z0-9_-]+)\./g)) ok(stepIds.includes(m[1]), `unknown step ${m[1]}`);
});

Deno.test("action.yml: run scripts take inputs through env, never by ${{ }} interpolation", async () => {
  const action = actionSchema.parse(await yamlFile("action.yml"));
  for (const step of action.runs.steps) {
    if (step.run !== undefined) {
      ok(!step.run.includes("${{"), `step "${step.name}" interpolates an expression into its script`);
    }
  }
});

Deno.test("action.yml: installs with install.sh, lints to SARIF, uploads it even on findings, then applies the exit codes", async () => {
  const action = actionSchema.parse(await yamlFile("action.yml"));
  const steps = action.runs.steps;
  const byId = (i: string) => steps.find((s) => s.id === i)!;
  ok(byId("install").run!.includes('sh "$GITHUB_ACTION_PATH/install.sh"'));
  ok(byId("install-windows").run!.includes("install.ps1"));
  ok(/poly lint --format sarif .*> "\$SARIF_FILE"/.test(byId("lint").run!));
  ok(/\|\| code=\$\?/.test(byId("lint").run!), "lint's exit code is recorded, not fatal under bash -e");
  ok(/poly fmt --check/.test(byId("fmt").run!));
  const upload = steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"))!;
  ok(upload, "uploads with github/codeql-action/upload-sarif");
  ok(upload.if!.includes("always()"), "the upload runs after findings (a non-zero lint)");
  ok(upload.if!.includes("inputs.sarif == 'true'"));
  equal(upload.with!.sarif_file, "${{ steps.lint.outputs.sarif-file }}");
  const last = steps.at(-1)!;
  ok(last.if!.includes("always()"));
  ok(steps.indexOf(upload) < steps.indexOf(last), "SARIF is uploaded before the job is failed");
});

// ---- pre-commit hook manifest (docs: pre-commit.com, "Creating new hooks") ----

const LANGUAGES = [
  "conda",
  "coursier",
  "dart",
  "docker",
  "docker_image",
  "dotnet",
  "fail",
  "golang",
  "haskell",
  "julia",
  "lua",
  "node",
  "perl",
  "pygrep",
  "python",
  "r",
  "ruby",
  "rust",
  "script",
  "swift",
  "system",
] as const;

const hookSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  entry: z.string().min(1),
  language: z.enum(LANGUAGES),
  files: z.string().optional(),
  exclude: z.string().optional(),
  types: z.array(z.string()).optional(),
  types_or: z.array(z.string()).optional(),
  exclude_types: z.array(z.string()).optional(),
  always_run: z.boolean().optional(),
  fail_fast: z.boolean().optional(),
  verbose: z.boolean().optional(),
  pass_filenames: z.boolean().optional(),
  require_serial: z.boolean().optional(),
  description: z.string().optional(),
  language_version: z.string().optional(),
  minimum_pre_commit_version: z.string().optional(),
  args: z.array(z.string()).optional(),
  stages: z.array(z.string()).optional(),
});

const manifestSchema = z.array(hookSchema).min(1);

/** identify tags (as of identify 2.5) for each language poly knows. */
const IDENTIFY_TAGS: Record<string, string[]> = {
  python: ["python", "pyi"],
  javascript: ["javascript", "jsx"],
  typescript: ["ts", "tsx"],
  json: ["json"],
  css: ["css"],
  graphql: ["graphql"],
  go: ["go"],
  shell: ["shell"],
  toml: ["toml"],
  markdown: ["markdown"],
  yaml: ["yaml"],
  dockerfile: ["dockerfile"],
  c: ["c"],
  cpp: ["c++"],
  java: ["java"],
  protobuf: ["proto"],
  sql: ["sql"],
  lua: ["lua"],
  php: ["php"],
  html: ["html"],
  vue: ["vue"],
  svelte: ["svelte"],
  svg: ["svg"],
  rust: ["rust"],
  astro: [], // identify has no astro tag in the versions Debian and Ubuntu ship
};

function tagsFor(languages: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const lang of languages) {
    const tags = IDENTIFY_TAGS[lang];
    ok(tags, `no identify tags known for poly language "${lang}": add it to IDENTIFY_TAGS and .pre-commit-hooks.yaml`);
    for (const t of tags) out.add(t);
  }
  return [...out].sort();
}

Deno.test(".pre-commit-hooks.yaml: poly-lint and poly-fmt hooks in the documented manifest shape", async () => {
  const hooks = manifestSchema.parse(await yamlFile(".pre-commit-hooks.yaml"));
  const lint = hooks.find((h) => h.id === "poly-lint")!;
  const fmt = hooks.find((h) => h.id === "poly-fmt")!;
  ok(lint && fmt);
  equal(lint.entry, "poly lint");
  equal(fmt.entry, "poly fmt --check");
  for (const h of hooks) {
    equal(h.language, "system", "the hooks run the installed poly");
    equal(h.pass_filenames, true);
    equal(new Set(hooks.map((x) => x.id)).size, hooks.length, "unique ids");
  }
});

Deno.test(".pre-commit-hooks.yaml: each hook receives exactly the file types poly has default engines for", async () => {
  const hooks = manifestSchema.parse(await yamlFile(".pre-commit-hooks.yaml"));
  const enabled = ENGINES.filter((e) => e.defaultEnabled);
  const lintTags = tagsFor(enabled.flatMap((e) => e.lintLanguages));
  const fmtTags = tagsFor(enabled.flatMap((e) => e.formatLanguages));
  deepEqual([...hooks.find((h) => h.id === "poly-lint")!.types_or!].sort(), lintTags);
  for (const id of ["poly-fmt", "poly-fmt-fix"]) {
    deepEqual([...hooks.find((h) => h.id === id)!.types_or!].sort(), fmtTags);
  }
});

async function hasPreCommit(): Promise<boolean> {
  try {
    return (await new Deno.Command("pre-commit", { args: ["--version"], stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

Deno.test({
  name: ".pre-commit-hooks.yaml: pre-commit's own validator accepts it",
  ignore: !(await hasPreCommit()),
  async fn() {
    const out = await new Deno.Command("pre-commit", {
      args: ["validate-manifest", join(REPO, ".pre-commit-hooks.yaml")],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    equal(out.code, 0, dec.decode(out.stdout) + dec.decode(out.stderr));
  },
});

// ---- workflows (docs: "Workflow syntax for GitHub Actions") ----

const workflowStep = z.strictObject({ ...stepKeys, "timeout-minutes": z.number().optional() }).refine(
  (s) => (s.run === undefined) !== (s.uses === undefined),
  "a step has exactly one of run and uses",
);

const workflowSchema = z.strictObject({
  name: z.string(),
  on: z.record(z.string(), z.unknown()),
  permissions: z.record(z.string(), z.enum(["read", "write", "none"])).optional(),
  concurrency: z.unknown().optional(),
  env: z.record(z.string(), scalar).optional(),
  jobs: z.record(
    id,
    z.strictObject({
      name: z.string().optional(),
      needs: z.union([z.string(), z.array(z.string())]).optional(),
      "runs-on": z.string(),
      "timeout-minutes": z.number().optional(),
      permissions: z.record(z.string(), z.enum(["read", "write", "none"])).optional(),
      strategy: z.unknown().optional(),
      env: z.record(z.string(), scalar).optional(),
      steps: z.array(workflowStep).min(1),
    }),
  ),
});

Deno.test("ci.yml: runs the README's test command on push and pull request", async () => {
  const ci = workflowSchema.parse(await yamlFile(".github/workflows/ci.yml"));
  ok("push" in ci.on && "pull_request" in ci.on);
  const runs = Object.values(ci.jobs).flatMap((j) => j.steps.map((s) => s.run ?? ""));
  const command = "npx -y deno@2.9.6 task test";
  ok(runs.some((r) => r.trim() === command), `a step runs exactly "${command}"`);
  const ciRun = await Deno.readTextFile(join(REPO, ".ci", "run")).catch(() => undefined);
  if (ciRun !== undefined) ok(ciRun.includes(command), ".ci/run runs the same command");
});

Deno.test("release.yml: on a v* tag, builds five targets, smoke-tests them, publishes with sha256sums.txt", async () => {
  const text = await Deno.readTextFile(join(REPO, ".github/workflows/release.yml"));
  const release = workflowSchema.parse(parse(text));
  deepEqual(release.on, { push: { tags: ["v*"] } });
  const build = release.jobs.build.steps.map((s) => s.run ?? "").join("\n");
  ok(build.includes("deno task compile:all"));
  ok(build.includes("scripts/package.ts --all"));
  const matrix = (release.jobs.smoke.strategy as { matrix: { include: { target: string }[] } }).matrix.include;
  deepEqual(matrix.map((m) => m.target).sort(), [
    "aarch64-apple-darwin",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
  deepEqual(release.jobs.publish.needs, ["build", "smoke"]);
  equal(release.jobs.publish.permissions?.contents, "write");
  ok(text.includes("sha256sum -c sha256sums.txt"));
  ok(/gh release create "\$GITHUB_REF_NAME" release\/\*/.test(text));
});

Deno.test({
  name: "action.yml and the workflows: every bash run script passes shellcheck",
  ignore: await missing("shellcheck", "action.yml and workflow shellcheck"),
  async fn() {
    const dir = await tempDir({ prefix: "poly-shellcheck-" });
    try {
      for (const file of ["action.yml", ".github/workflows/release.yml", ".github/workflows/ci.yml"]) {
        const doc = await yamlFile(file) as { runs?: { steps: Step[] }; jobs?: Record<string, { steps: Step[] }> };
        const steps = doc.runs ? doc.runs.steps : Object.values(doc.jobs ?? {}).flatMap((j) => j.steps);
        for (const [i, s] of steps.entries()) {
          if (!s.run || s.shell === "pwsh") continue;
          const script = join(dir, `${i}.sh`);
          // Expressions are replaced by a plain word, as the runner substitutes them before bash runs.
          await Deno.writeTextFile(script, "#!/bin/bash\n" + s.run.replaceAll(/\$\{\{[^}]*\}\}/g, "X"));
          const out = await new Deno.Command("shellcheck", { args: ["-s", "bash", script], stdout: "piped" }).output();
          equal(out.code, 0, `${file}, step "${s.name}":\n${new TextDecoder().decode(out.stdout)}`);
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

interface Step {
  name?: string;
  run?: string;
  shell?: string;
}
