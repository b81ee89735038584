import { deepEqual, equal, notEqual } from "node:assert/strict";
import { join } from "node:path";
import { isSourced, sourcedNames, sourcesContext } from "../../../lib/engines/shellcheck/_sources.ts";
import { tempDir } from "../../_helpers/temp.ts";

Deno.test("sourcedNames: directives and literal arguments of source and ., not expansions or comments", () => {
  const text = [
    "#!/bin/bash",
    "# shellcheck source=SCRIPTDIR/../lib/common.sh",
    '. "$(dirname "$0")/../lib/common.sh"',
    "source ./lib/a.sh",
    "if true; then . 'lib/b.sh'; fi",
    'source "$HOME/.env"',
    "# source lib/commented.sh",
    "# shellcheck source=/dev/null",
    'source "$x"',
    "echo . not-a-command",
  ].join("\n");
  deepEqual(sourcedNames(text), ["SCRIPTDIR/../lib/common.sh", "./lib/a.sh", "lib/b.sh"]);
});

Deno.test("sourcesContext: follows sourced files where shellcheck looks, and changes with their bytes or absence", async () => {
  const root = await tempDir();
  await Deno.mkdir(join(root, "bin"));
  await Deno.mkdir(join(root, "lib"));
  const script = join(root, "bin/run.sh");
  const text = "#!/bin/bash\n# shellcheck source=SCRIPTDIR/../lib/common.sh\n. x\n";
  equal(sourcesContext(script, "#!/bin/bash\necho hi\n", root, []), "");
  const absent = sourcesContext(script, text, root, []);
  notEqual(absent, "");
  await Deno.writeTextFile(join(root, "lib/common.sh"), "greeting=hello\n");
  const present = sourcesContext(script, text, root, []);
  notEqual(present, absent);
  // What the sourced file sources is followed too (from the folder shellcheck runs in).
  await Deno.writeTextFile(join(root, "lib/common.sh"), "greeting=hello\n. lib/more.sh\n");
  const nested = sourcesContext(script, text, root, []);
  await Deno.writeTextFile(join(root, "lib/more.sh"), "more=1\n");
  notEqual(sourcesContext(script, text, root, []), nested);
  // A source-path folder is looked in too.
  const plain = "#!/bin/bash\n. common.sh\n";
  const without = sourcesContext(script, plain, root, []);
  notEqual(sourcesContext(script, plain, root, ["SCRIPTDIR/../lib"]), without);
});

Deno.test("isSourced: only a path some script's context named is another file's context", async () => {
  const root = await tempDir();
  const script = join(root, "run.sh");
  equal(isSourced(join(root, "lib/named.sh")), false);
  sourcesContext(script, "#!/bin/bash\n. lib/named.sh\n", root, []);
  equal(isSourced(join(root, "lib/named.sh")), true);
  equal(isSourced(join(root, "lib/other.sh")), false);
});
