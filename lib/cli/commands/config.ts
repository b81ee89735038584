/**
 * `poly config show|init|update`: print the effective configuration, write a
 * starter poly.toml, and pin git extends bases in poly-config.lock.
 *
 * @module
 */
import { argument, command, constant, message, object, option, optional, or } from "../_optique.ts";
import { pathValue } from "../_path.ts";
import { defineCommand } from "../command.ts";
import type { CommandIO } from "../command.ts";
import { UsageError } from "../../errors/mod.ts";
import { formatOption } from "../output.ts";

const configOption = optional(
  option("--config", pathValue("PATH"), {
    description: message`Use exactly this config file (plus its extends and a poly.local.toml beside it).`,
  }),
);

const show = command(
  "show",
  object({
    action: constant("show" as const),
    format: formatOption(["toml", "json"]),
    config: configOption,
    dir: optional(argument(pathValue("DIR", "directory"), {
      description: message`Directory whose configuration to show (default: the current directory).`,
    })),
  }),
  {
    brief: message`Print the merged effective configuration.`,
    description:
      message`Print the merged effective configuration for a directory, with its fingerprint and sources. Never touches the network.`,
  },
);

const init = command(
  "init",
  object({
    action: constant("init" as const),
    force: option("--force", { description: message`Overwrite an existing poly.toml.` }),
  }),
  { brief: message`Write a commented starter poly.toml into the current directory.` },
);

const update = command(
  "update",
  object({ action: constant("update" as const), config: configOption }),
  {
    brief: message`Fetch git extends bases and pin them in poly-config.lock.`,
    description:
      message`Fetch every git extends base of the configs governing the current directory, check the pinned commits out into the cache, and write poly-config.lock beside the file declaring them.`,
  },
);

const importCommand = command(
  "import",
  object({
    action: constant("import" as const),
    config: configOption,
  }),
  {
    brief: message`Write the native tool configuration as poly.toml tables.`,
    description:
      message`Write the poly.toml tables equivalent to the engines' own configuration files governing the current directory (ruff.toml, pyproject.toml [tool.ruff], biome.json, .prettierrc), with [tools.<engine>] native_config = false, into ./poly.toml (added to an existing one). What poly.toml cannot say the same way is refused, naming the file and key.`,
  },
);

type ConfigValue =
  | { action: "show"; format: "toml" | "json"; config?: string; dir?: string }
  | { action: "init"; force: boolean }
  | { action: "update"; config?: string }
  | { action: "import"; config?: string };

/** `poly config`. */
export const configCommand = defineCommand<ConfigValue>({
  parser: command("config", or(show, init, update, importCommand), {
    brief: message`Show, initialise and update poly.toml configuration.`,
  }),
  async run(value, io) {
    if (value.action === "show") return await runShow(value, io);
    if (value.action === "init") return await runInit(value.force, io);
    if (value.action === "import") return await runImport(value.config, io);
    return await runUpdate(value.config, io);
  },
});

async function runShow(value: { format: "toml" | "json"; config?: string; dir?: string }, io: CommandIO) {
  const { resolve, dirname } = await import("node:path");
  const { openConfig, renderJson, renderToml, showPath } = await import("../../config/mod.ts");
  let dir = resolve(io.cwd, value.dir ?? ".");
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch {
    throw new UsageError(`Directory "${value.dir}" does not exist: pass an existing directory`);
  }
  if (!info.isDirectory) dir = dirname(dir);
  const configs = await openConfig({ cwd: io.cwd, explicit: value.config });
  const config = await configs.forDir(dir);
  const display = (path: string) => showPath(path, io.cwd, configs.anchor);
  await io.stdout(value.format === "json" ? renderJson(config, display) : renderToml(config, display));
  return 0;
}

async function runInit(force: boolean, io: CommandIO) {
  const { join } = await import("node:path");
  const { writeFileAtomic } = await import("../../fs/atomic.ts");
  const { STARTER_CONFIG, CONFIG_FILE } = await import("../../config/mod.ts");
  const path = join(io.cwd, CONFIG_FILE);
  let exists = false;
  try {
    await Deno.lstat(path);
    exists = true;
  } catch {
    // Does not exist: write it.
  }
  if (exists && !force) {
    throw new UsageError(`"${CONFIG_FILE}" already exists in this directory: pass --force to overwrite it`);
  }
  await writeFileAtomic(path, await starterFor(io.cwd, STARTER_CONFIG));
  await io.stderr(`${exists ? "Overwrote" : "Wrote"} ${CONFIG_FILE}\n`);
  return 0;
}

/** The rule-folder line of the starter, commented out. */
const RULES_LINE = `# dirs = [".poly/rules"]`;

/**
 * The starter for `dir`: it names `.poly/rules` as a rule folder only when that
 * folder exists (a config naming a folder that is not there misleads); otherwise
 * the line stays a comment (the starter says how to start one).
 */
export async function starterFor(dir: string, starter: string): Promise<string> {
  const { join } = await import("node:path");
  let exists = false;
  try {
    exists = (await Deno.stat(join(dir, ".poly", "rules"))).isDirectory;
  } catch {
    // No rule folder.
  }
  return exists ? starter.replace(RULES_LINE, RULES_LINE.slice(2)) : starter;
}

async function runUpdate(config: string | undefined, io: CommandIO) {
  const { relative } = await import("node:path");
  const { updateConfigLock } = await import("../../config/mod.ts");
  const updates = await updateConfigLock({ cwd: io.cwd, explicit: config });
  if (updates.length === 0) {
    await io.stderr("No git extends bases to update\n");
    return 0;
  }
  for (const update of updates) {
    const where = relative(io.cwd, update.path) || update.path;
    for (const entry of update.entries) {
      const revision = entry.revision === undefined ? "" : ` (revision "${entry.revision}")`;
      await io.stderr(`Pinned "${entry.git}"${revision} at ${entry.commit.slice(0, 12)}\n`);
    }
    await io.stderr(`${update.changed ? "Wrote" : "Unchanged"} ${where}\n`);
  }
  return 0;
}

async function runImport(config: string | undefined, io: CommandIO) {
  const { join } = await import("node:path");
  const { writeFileAtomic } = await import("../../fs/atomic.ts");
  const { openConfig, showPath, CONFIG_FILE } = await import("../../config/mod.ts");
  const { importNative } = await import("../../config/native/import.ts");
  const configs = await openConfig({ cwd: io.cwd, explicit: config });
  const display = (path: string) => showPath(path, io.cwd, configs.anchor);
  const result = importNative(await configs.forDir(io.cwd), io.cwd, display);
  if (result.files.length === 0) {
    await io.stderr(
      result.kept.length > 0
        ? `Nothing to import: poly reads ${result.kept.map(display).join(", ")} as ${
          result.kept.length > 1 ? "they are" : "it is"
        }\n`
        : "No native configuration governs this directory: nothing to import\n",
    );
    return 0;
  }
  const path = join(io.cwd, CONFIG_FILE);
  let existing = "";
  try {
    existing = await Deno.readTextFile(path);
  } catch {
    // No poly.toml here yet: write a new one.
  }
  if (
    /^\s*\[(?:lint|fmt)\.[a-z]+\.(?:ruff|biome)\]|^\s*\[tools\.(?:ruff|biome)\]|^\s*\[(?:lint|fmt|tools|per-file-ignores)\]/m
      .test(existing)
  ) {
    throw new UsageError(
      `"${CONFIG_FILE}" already has tables the import would write ([lint|fmt.*.ruff|biome], [tools], [per-file-ignores]): merge by hand from "poly config import" in an empty directory`,
    );
  }
  await writeFileAtomic(path, existing ? `${existing.trimEnd()}\n\n${result.toml}` : result.toml);
  await io.stderr(`${existing ? "Added to" : "Wrote"} ${CONFIG_FILE} from ${result.files.map(display).join(", ")}\n`);
  return 0;
}
