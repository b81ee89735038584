/**
 * `poly config init`: the commented starter poly.toml. Every key it sets is a
 * default, so a fresh file changes nothing until it is edited.
 *
 * @module
 */

/** The text `poly config init` writes. */
export const STARTER_CONFIG = `# poly.toml: configuration for \`poly lint\` and \`poly fmt\`.
# Check what applies where with \`poly config show [DIR]\`.
#
# A poly.toml in a subdirectory overrides this one for its subtree; a
# poly.local.toml beside any poly.toml overrides it on this machine only
# (keep it out of version control).

# Bases merge underneath this file (paths are relative to it). Git bases are
# fetched and pinned only by \`poly config update\`, which writes poly-config.lock.
# extends = ["../shared/poly.toml"]
# extends = [{ git = "https://github.com/example/style.git", revision = "v1", file = "poly.toml" }]

[defaults]
line_length = 120
line_ending = "lf" # "lf", "crlf" or "auto"
final_newline = true
trim_trailing_whitespace = true
# indent_width = 4

[discovery]
# gitignore syntax: a leading "/" anchors a pattern at this directory;
# other patterns match at any depth below it.
exclude = []
# exclude_mode = "replace" # start over instead of adding to inherited excludes
# force_exclude = true     # exclude even paths named on the command line
# max_file_size = 2097152  # bytes; larger files are skipped with a reason

# Linters and formatters per language: [lint.<language>.<tool>], [fmt.<language>.<tool>].
# [lint.python.ruff]
# select = ["E", "F", "I"]
# ignore = ["E501"]
#
# [lint.python.ruff.rules.F401]
# level = "warning" # "off", "hint", "info", "warning" or "error"
#
# [lint.typescript.biome]
# ignore = ["lint/style/useConst"]

[per-file-ignores]
# "tests/**" = ["S101"]

[rules]
# ast-grep rule folders, relative to this file; .poly/rules is the default:
# create it and add rule files (poly config init names it when it exists).
# dirs = [".poly/rules"]

# [tools.oxlint]
# enabled = false

[cache]
enabled = true

# [workspace]
# root = true # do not look for poly.toml files above this directory
`;
