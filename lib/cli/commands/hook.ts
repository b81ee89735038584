/**
 * `poly hook agent [--tool-prefix P]`: the call-time agent hook. The host
 * (Claude Code, Codex) runs it on PreToolUse, SessionStart, SubagentStart and
 * UserPromptSubmit with the event as JSON on stdin. It always exits 0; its
 * answer, if any, is one JSON document on stdout. POLY_DEBUG=1 shows why it
 * stayed silent, on stderr.
 *
 * Runs on every tool call of the host, so it imports nothing heavy.
 *
 * @module
 */
import { command, message, object, option, optional, string } from "../_optique.ts";
import { defineCommand } from "../command.ts";

const parser = command(
  "hook",
  command(
    "agent",
    object({
      toolPrefix: optional(
        option("--tool-prefix", string({ metavar: "PREFIX" }), {
          description: message`MCP tool name prefix the host shows (default: POLY_HOOK_TOOL_PREFIX, else mcp__poly__)`,
        }),
      ),
    }),
    {
      description: message`Answer one agent hook event (JSON on stdin) with a nudge, a one-shot redirect, or nothing.`,
    },
  ),
  { description: message`Hooks the host agent calls (see poly hooks for git hooks).` },
);

function debugEnabled(): boolean {
  try {
    const value = Deno.env.get("POLY_DEBUG") ?? "";
    return value !== "" && value !== "0";
  } catch {
    return false;
  }
}

/** `poly hook agent`. */
export const hookCommand = defineCommand({
  parser,
  async run(value: { toolPrefix?: string }, io) {
    if (Deno.stdin.isTerminal()) {
      await io.stderr(
        "poly hook agent reads one hook event as JSON on stdin; the host (Claude Code, Codex) pipes it in.\n",
      );
      return 0;
    }
    let input = "";
    try {
      input = await new Response(Deno.stdin.readable).text();
    } catch (error) {
      if (debugEnabled()) await io.stderr(`poly hook agent: cannot read stdin: ${error}\n`);
      return 0;
    }
    const { runAgentHook } = await import("../../hooks/agent/hook.ts");
    const result = await runAgentHook(input, { toolPrefix: value.toolPrefix });
    if (result.stdout) await io.stdout(result.stdout);
    if (debugEnabled()) { for (const line of result.debug) await io.stderr(`poly hook agent: ${line}\n`); }
    return 0;
  },
});
