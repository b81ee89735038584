/**
 * The pre-commit script `poly hooks install` writes: a few lines of POSIX sh that
 * run a chained earlier hook, then `poly hooks run pre-commit`.
 *
 * @module
 */

/** Marks a hook file as poly's own (install refreshes it, uninstall removes it). */
export const HOOK_MARKER = "# poly:managed-hook";

/** Suffix of the earlier hook poly chains to. */
export const CHAINED_SUFFIX = ".pre-poly";

/** Whether a hook file's text is poly's own. */
export function isPolyHook(text: string): boolean {
  return text.split("\n", 3).some((line) => line.startsWith(HOOK_MARKER));
}

/** The script for `hook` (e.g. "pre-commit") written by version `version`. */
export function hookScript(hook: string, version: string): string {
  return `#!/bin/sh
${HOOK_MARKER} v=${version}
# Installed by \`poly hooks install\`: lints and format-checks the STAGED content
# (not the working tree) and blocks the commit when that fails.
# \`poly hooks uninstall\` removes it and restores the hook it chained, if any.
# POLY_BIN overrides the command that starts poly (words separated by spaces).
hook_dir=$(dirname -- "$0")
if [ -x "$hook_dir/${hook}${CHAINED_SUFFIX}" ]; then
  "$hook_dir/${hook}${CHAINED_SUFFIX}" "$@" || exit $?
fi
if [ -n "$POLY_BIN" ]; then
  exec $POLY_BIN hooks run ${hook}
fi
if ! command -v poly >/dev/null 2>&1; then
  echo "poly ${hook}: poly is not on PATH: install it, set POLY_BIN, or skip the check once with git commit --no-verify" >&2
  exit 1
fi
exec poly hooks run ${hook}
`;
}
