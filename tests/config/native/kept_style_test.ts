/**
 * The formatters poly does not run (lib/config/native/kept_style.ts): their files found as the tools find them, by the
 * language they keep, and the configuration they make keeping poly's formatters from those files (lib/run/plan.ts).
 * The end-to-end parity is tests/e2e/host_native_config_test.ts (fixtures python-style-kept, kept-style-others).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfig } from "../../../lib/config/load.ts";
import { KEPT_STYLE } from "../../../lib/config/native/mod.ts";
import { tempRepository } from "../../_helpers/temp.ts";

async function kept(files: Record<string, string>, sub = ""): Promise<Record<string, unknown> | undefined> {
  const dir = await tempRepository(files, "poly-native-kept-");
  return (await (await openConfig({ cwd: dir })).forDir(join(dir, sub))).native?.[KEPT_STYLE]?.options;
}

Deno.test("yapf's files, in yapf's order in each folder from the file's up: .style.yapf, [yapf], [tool.yapf]", async () => {
  assert.deepEqual(await kept({ ".style.yapf": "[style]\nbased_on_style = google\n" }), {
    python: "yapf (.style.yapf)",
  });
  assert.deepEqual(await kept({ "setup.cfg": "[metadata]\nname = a\n\n[yapf] # the style\nbased_on_style = pep8\n" }), {
    python: "yapf ([yapf] in setup.cfg)",
  });
  assert.deepEqual(await kept({ "pyproject.toml": '[tool.yapf]\nbased_on_style = "pep8"\n' }), {
    python: "yapf ([tool.yapf] in pyproject.toml)",
  });
  assert.deepEqual(await kept({ "pyproject.toml": "[tool.pyink]\npyink-indentation = 2\n" }), {
    python: "pyink ([tool.pyink] in pyproject.toml)",
  });
  // A setup.cfg without the section is passed over, to the pyproject.toml beside it and the folders above.
  assert.deepEqual(
    await kept({ "pkg/setup.cfg": "[flake8]\n", ".style.yapf": "[style]\n", "pkg/src/.keep": "" }, "pkg/src"),
    {
      python: "yapf (.style.yapf)",
    },
  );
  // yapf's ignore table, black's, ruff's: not a formatter poly leaves the files to.
  assert.equal(
    await kept({ "pyproject.toml": '[tool.yapfignore]\nignore_patterns = ["x"]\n[tool.black]\n' }),
    undefined,
  );
  assert.equal(await kept({ "setup.cfg": "[yapf:extra]\n", "ruff.toml": "" }), undefined);
});

Deno.test("SQLFluff's, taplo's and yamlfmt's files keep SQL, TOML and YAML, each language by its nearest", async () => {
  assert.deepEqual(await kept({ ".sqlfluff": "[sqlfluff]\ndialect = postgres\n" }), { sql: "SQLFluff (.sqlfluff)" });
  assert.deepEqual(
    await kept({ "tox.ini": "[tox]\n[sqlfluff:rules:capitalisation.keywords]\ncapitalisation_policy = upper\n" }),
    {
      sql: "SQLFluff ([sqlfluff] in tox.ini)",
    },
  );
  assert.deepEqual(await kept({ "pyproject.toml": '[tool.sqlfluff.core]\ndialect = "ansi"\n' }), {
    sql: "SQLFluff ([tool.sqlfluff] in pyproject.toml)",
  });
  const all = await kept(
    {
      "taplo.toml": "[formatting]\nalign_entries = true\n",
      "app/.yamlfmt": "formatter:\n  type: basic\n",
      "app/x/.keep": "",
    },
    "app/x",
  );
  assert.deepEqual(all, { toml: "taplo (taplo.toml)", yaml: "yamlfmt (.yamlfmt)" });
});

Deno.test("tombi's files keep TOML: tombi.toml, .tombi.toml, a [tool.tombi] table of pyproject.toml", async () => {
  assert.deepEqual(await kept({ "tombi.toml": 'toml-version = "v1.0.0"\n' }), { toml: "tombi (tombi.toml)" });
  assert.deepEqual(await kept({ ".tombi.toml": "[format]\n" }), { toml: "tombi (.tombi.toml)" });
  assert.deepEqual(await kept({ "pyproject.toml": '[project]\nname = "a"\n\n[tool.tombi.format]\n' }), {
    toml: "tombi ([tool.tombi] in pyproject.toml)",
  });
  assert.equal(await kept({ "pyproject.toml": "[tool.tombix]\n" }), undefined);
});

Deno.test("a build's Java formatter keeps Java: found in pom.xml or Gradle's files, a module's passed over", async () => {
  const pom = (plugin: string) =>
    `<project>\n  <build><plugins><plugin>\n    <artifactId>${plugin}</artifactId>\n  </plugin></plugins></build>\n</project>\n`;
  assert.deepEqual(await kept({ "pom.xml": pom("spotless-maven-plugin") }), {
    java: "Spotless (spotless-maven-plugin in pom.xml)",
  });
  assert.deepEqual(await kept({ "pom.xml": pom(" spring-javaformat-maven-plugin ") }), {
    java: "Spring Java Format (spring-javaformat-maven-plugin in pom.xml)",
  });
  assert.deepEqual(await kept({ "pom.xml": pom("fmt-maven-plugin") }), {
    java: "google-java-format (its Maven plugin in pom.xml)",
  });
  assert.deepEqual(await kept({ "pom.xml": pom("googleformatter-maven-plugin") }), {
    java: "google-java-format (its Maven plugin in pom.xml)",
  });
  assert.deepEqual(await kept({ "pom.xml": pom("formatter-maven-plugin") }), {
    java: "the Eclipse formatter (formatter-maven-plugin in pom.xml)",
  });
  assert.deepEqual(await kept({ "pom.xml": pom("prettier-maven-plugin") }), {
    java: "prettier-java (prettier-maven-plugin in pom.xml)",
  });
  // Checkstyle's layout checks, as ESLint's style rules keep JavaScript.
  assert.deepEqual(await kept({ "pom.xml": pom("maven-checkstyle-plugin") }), {
    java: "Checkstyle (maven-checkstyle-plugin in pom.xml)",
  });
  assert.deepEqual(await kept({ "build.gradle.kts": "plugins {\n    java\n    checkstyle\n}\n" }), {
    java: "Checkstyle (build.gradle.kts)",
  });
  // A plugin that formats no Java, or a dependency on the formatter as a library: nothing is kept.
  assert.equal(await kept({ "pom.xml": pom("maven-compiler-plugin") }), undefined);
  assert.equal(await kept({ "pom.xml": pom("google-java-format") }), undefined);
  // Gradle: the plugin's id in a build or settings file, Groovy or Kotlin.
  assert.deepEqual(await kept({ "build.gradle": "plugins {\n  id 'com.diffplug.spotless' version '8.0.0'\n}\n" }), {
    java: "Spotless (build.gradle)",
  });
  assert.deepEqual(await kept({ "build.gradle.kts": 'plugins {\n    id("io.spring.javaformat")\n}\n' }), {
    java: "Spring Java Format (build.gradle.kts)",
  });
  assert.deepEqual(
    await kept({ "settings.gradle.kts": 'plugins { id("com.palantir.java-format") version "2.50.0" }\n' }),
    {
      java: "Palantir Java Format (settings.gradle.kts)",
    },
  );
  assert.deepEqual(await kept({ "build.gradle": "apply plugin: 'com.github.sherter.google-java-format'\n" }), {
    java: "google-java-format (build.gradle)",
  });
  // A module's own file names none: its parent's does (a Maven parent, a Gradle root applying it to subprojects).
  assert.deepEqual(
    await kept({
      "pom.xml": pom("spotless-maven-plugin"),
      "core/pom.xml": pom("maven-jar-plugin"),
      "core/src/.keep": "",
    }, "core/src"),
    { java: "Spotless (spotless-maven-plugin in pom.xml)" },
  );
});

Deno.test("a Gradle build's catalog and convention plugins' builds are read beside its settings or build file", async () => {
  const catalog =
    '[libraries]\nspotless = { module = "com.diffplug.spotless:spotless-plugin-gradle", version = "8.0.0" }\n';
  assert.deepEqual(
    await kept({
      "settings.gradle.kts": 'include("lib")\n',
      "gradle/libs.versions.toml": catalog,
      "lib/build.gradle.kts": 'plugins { id("conventions") }\n',
      "lib/src/.keep": "",
    }, "lib/src"),
    { java: "Spotless (gradle/libs.versions.toml)" },
  );
  assert.deepEqual(
    await kept({
      "build.gradle": "\n",
      "buildSrc/build.gradle.kts":
        'dependencies { implementation("com.diffplug.spotless:spotless-plugin-gradle:8.0.0") }\n',
    }),
    { java: "Spotless (buildSrc/build.gradle.kts)" },
  );
  assert.deepEqual(
    await kept({
      "settings.gradle": "\n",
      "build-logic/build.gradle":
        "dependencies { implementation 'com.palantir.javaformat:gradle-palantir-java-format:2.50.0' }\nplugins { id 'com.palantir.java-format' }\n",
    }),
    { java: "Palantir Java Format (build-logic/build.gradle)" },
  );
  // Gradle's checkstyle plugin reads config/checkstyle/checkstyle.xml by default.
  assert.deepEqual(
    await kept({
      "settings.gradle": "\n",
      "config/checkstyle/checkstyle.xml": '<?xml version="1.0"?>\n<module name="Checker">\n</module>\n',
    }),
    { java: "Checkstyle (config/checkstyle/checkstyle.xml)" },
  );
  // Without a Gradle build in the folder, a catalog there is no build's.
  assert.equal(await kept({ "gradle/libs.versions.toml": catalog }), undefined);
});

Deno.test("buf's and protolint's files keep Protobuf, mdformat's Markdown, djLint's HTML, sql-formatter's SQL", async () => {
  assert.deepEqual(
    await kept({ "buf.yaml": "version: v2\nmodules:\n  - path: proto\n", "proto/a/.keep": "" }, "proto/a"),
    {
      protobuf: "buf (buf.yaml)",
    },
  );
  assert.deepEqual(await kept({ "buf.work.yaml": "version: v1\ndirectories: [proto]\n" }), {
    protobuf: "buf (buf.work.yaml)",
  });
  assert.deepEqual(await kept({ ".protolint.yaml": "lint:\n  rules:\n    all_default: true\n" }), {
    protobuf: "protolint (.protolint.yaml)",
  });
  assert.deepEqual(await kept({ ".mdformat.toml": "wrap = 80\n" }), { markdown: "mdformat (.mdformat.toml)" });
  assert.deepEqual(await kept({ ".djlintrc": '{ "indent": 2 }\n' }), { html: "djLint (.djlintrc)" });
  assert.deepEqual(await kept({ "pyproject.toml": '[tool.djlint]\nprofile = "django"\n' }), {
    html: "djLint ([tool.djlint] in pyproject.toml)",
  });
  assert.deepEqual(await kept({ ".sql-formatter.json": '{ "keywordCase": "upper" }\n' }), {
    sql: "sql-formatter (.sql-formatter.json)",
  });
  // buf.gen.yaml generates code; it formats nothing.
  assert.equal(await kept({ "buf.gen.yaml": "version: v2\n" }), undefined);
});

Deno.test("pylint's width is found in its files and sections, under its own key, not as a language kept", async () => {
  assert.deepEqual(await kept({ pylintrc: "[FORMAT]\nmax-line-length=88\n" }), {
    pylint: "pylint (max-line-length in pylintrc)",
  });
  assert.deepEqual(await kept({ ".pylintrc.toml": "[tool.pylint.format]\nmax-line-length = 100\n" }), {
    pylint: "pylint (max-line-length in .pylintrc.toml)",
  });
  assert.deepEqual(
    await kept({ "pyproject.toml": '[tool.black]\n\n[tool.pylint."FORMAT"]\nmax-line-length = 100\n' }),
    { pylint: "pylint (max-line-length in pyproject.toml)" },
  );
  assert.deepEqual(await kept({ "setup.cfg": "[pylint.FORMAT]\nmax-line-length = 100\n" }), {
    pylint: "pylint (max-line-length in setup.cfg)",
  });
  // pylint's file without a width, or a width of flake8's alone: nothing.
  assert.equal(await kept({ pylintrc: "[MESSAGES CONTROL]\ndisable=C0114\n" }), undefined);
  assert.equal(await kept({ "setup.cfg": "[flake8]\nmax-line-length = 100\n" }), undefined);
});
