/**
 * The `@ast-grep/lang-*` parser packages (tree-sitter libraries for Bash, Go,
 * Python, Rust and YAML), without ast-grep itself: the engine identity hashes
 * their libraries on every run, and loading `@ast-grep/napi` only to name them
 * would cost a native module load.
 *
 * @module
 */
import bash from "@ast-grep/lang-bash";
import go from "@ast-grep/lang-go";
import python from "@ast-grep/lang-python";
import rust from "@ast-grep/lang-rust";
import yaml from "@ast-grep/lang-yaml";

/** One dynamic language package as `registerDynamicLanguage` takes it. */
export interface LangPackage {
  libraryPath: string;
  extensions: string[];
  languageSymbol?: string;
  expandoChar?: string;
}

/** The `@ast-grep/lang-*` packages, by parser name. */
export const DYNAMIC_PACKAGES: Record<string, LangPackage> = { bash, go, python, rust, yaml } as Record<
  string,
  LangPackage
>;

/** The parser libraries' paths (hashed into the engine digest). */
export function parserLibraryPaths(): string[] {
  return Object.values(DYNAMIC_PACKAGES).map((pkg) => pkg.libraryPath);
}
