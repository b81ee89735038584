/** `shellView()`: the shell of a Dockerfile's RUN instructions, at the same offsets. */
import { equal } from "node:assert/strict";
import { shellView } from "../../../lib/engines/ast_grep/_dockerfile.ts";

Deno.test("shellView() keeps RUN bodies at their own lines and columns and blanks the rest", () => {
  const text = 'FROM debian:12 AS büild\nRUN curl -fsSL https://x | sh\nENV A=1 \\\n    RUN=2\nCMD ["x"]\n';
  const view = shellView(text)!;
  equal(view.length, text.length);
  equal(view.split("\n")[1], "    curl -fsSL https://x | sh");
  equal(view.split("\n")[0].trim(), "");
  equal(view.split("\n")[3].trim(), "", "a continuation of ENV is not a RUN");
});

Deno.test("shellView() follows continuations, drops comment lines in them, and strips --flags", () => {
  const text = "RUN --mount=type=cache,target=/c apt-get update \\\n# a comment\n    && apt-get install -y git\n";
  const lines = shellView(text)!.split("\n");
  equal(lines[0], " ".repeat("RUN --mount=type=cache,target=/c ".length) + "apt-get update \\");
  equal(lines[1].trim(), "");
  equal(lines[2], "    && apt-get install -y git");
});

Deno.test("shellView() reads RUN heredocs as shell and skips the exec form", () => {
  const text = 'RUN <<EOF\nset -e\ncurl x | sh\nEOF\nRUN ["sh", "-c", "curl x | sh"]\n';
  const lines = shellView(text)!.split("\n");
  equal(lines[0].trim(), "");
  equal(lines[1], "set -e");
  equal(lines[2], "curl x | sh");
  equal(lines[3].trim(), "");
  equal(lines[4].trim(), "");
  equal(shellView('FROM x\nRUN ["a"]\n'), undefined);
});
