/**
 * Which Bash commands the agent hook recognises as direct linter/formatter runs
 * or artifact writes — and which it must leave alone.
 */
import { deepEqual, equal } from "node:assert/strict";
import { directToolCall, writesArtifact } from "../../lib/hooks/mod.ts";

const DIRECT: [string, string, string][] = [
  ["ruff check .", "ruff", "lint"],
  ["ruff check --fix src", "ruff", "lint_fix"],
  ["ruff format --check", "ruff", "format_check"],
  ["ruff format", "ruff", "format_write"],
  ["uv run ruff check", "ruff", "lint"],
  ["python -m ruff check app", "ruff", "lint"],
  ["poetry run black .", "black", "format_write"],
  ["black --check .", "black", "format_check"],
  ["npx eslint src", "eslint", "lint"],
  ["npx --yes eslint --fix src", "eslint", "lint_fix"],
  ["pnpm exec prettier --check .", "prettier", "format_check"],
  ["npx prettier@3.3 -w .", "prettier", "format_write"],
  ["./node_modules/.bin/biome lint src", "biome", "lint"],
  ["npx @biomejs/biome check --write .", "biome", "lint_fix"],
  ["bunx biome format src", "biome", "format_check"],
  ["oxlint --fix", "oxlint", "lint_fix"],
  ["gofmt -l .", "gofmt", "format_check"],
  ["gofmt -w main.go", "gofmt", "format_write"],
  ["go fmt ./...", "go fmt", "format_write"],
  ["go vet ./...", "go vet", "workspace_lint"],
  ["rustfmt --check src/lib.rs", "rustfmt", "format_check"],
  ["cargo fmt", "cargo fmt", "format_write"],
  ["cargo fmt --check", "cargo fmt", "format_check"],
  ["cargo clippy --fix --allow-dirty", "cargo clippy", "workspace_lint_fix"],
  ["shfmt -d scripts", "shfmt", "format_check"],
  ["shellcheck scripts/*.sh", "shellcheck", "lint"],
  ["clang-format -i src/a.c", "clang-format", "format_write"],
  ["FOO=1 sudo -u ci flake8 app", "flake8", "lint"],
  ["cd web && npm ci && npx eslint .", "eslint", "lint"],
  ["cat files.txt | xargs prettier --write", "prettier", "format_write"],
];

for (const [command, program, tool] of DIRECT) {
  Deno.test(`directToolCall() sees ${program} → ${tool} in \`${command}\``, () => {
    const call = directToolCall(command);
    deepEqual(call && { program: call.program, tool: call.tool }, { program, tool });
  });
}

const NOT_DIRECT = [
  'git commit -m "fix ruff and eslint warnings"',
  "echo 'run prettier later'",
  "poly lint --fix .",
  "poly fmt --check src",
  "grep -r eslint package.json",
  "ruff --version",
  "ruff rule F401",
  "cargo build",
  "go test ./...",
  "cat .prettierrc",
  "npm install --save-dev eslint",
];

for (const command of NOT_DIRECT) {
  Deno.test(`directToolCall() leaves \`${command}\` alone`, () => {
    equal(directToolCall(command), undefined);
  });
}

Deno.test("writesArtifact() recognises commits, pushes, worktrees, PRs and issues only", () => {
  for (
    const command of [
      "git commit -am wip",
      "git -C repo push origin main",
      "git worktree add ../x",
      "gh pr create --fill",
      "gh issue create -t x",
      "bkt pr create",
    ]
  ) {
    equal(writesArtifact(command), true, command);
  }
  for (
    const command of [
      "git status",
      "git diff --stat",
      "git log -5",
      "git checkout main",
      "gh pr view 3",
      "echo git commit",
    ]
  ) {
    equal(writesArtifact(command), false, command);
  }
});
