/**
 * How ruff reads a rule selector (`select`, `ignore`, `per-file-ignores`): a linter's prefix, then a prefix of its
 * codes — `D` is pydocstyle's and selects `D100`, not flake8-datetimez's `DTZ005`; `T` selects flake8-debugger's and
 * flake8-print's rules (`T100`, `T201`), not flake8-todos' `TD002` nor tryceratops' `TRY003`; `C` selects
 * flake8-comprehensions' and mccabe's (`C416`, `C901`), not `COM812`. A string prefix says otherwise (pydantic's
 * `'docs/*' = ['D']` hid 67 `DTZ001` findings of its docs). ruff 0.16.9's linter prefixes (`ruff linter`) and
 * redirects (old names: `TCH` → `TC`, `T1` → `T10`, ...).
 *
 * @module
 */

/** ruff 0.16.9's linter prefixes, pylint's with its categories (`PLC`, ...) and pycodestyle's two (`E`, `W`). */
const LINTERS = (
  "AIR ERA FAST YTT ANN ASYNC S BLE FBT B A COM C4 CPY DTZ T10 DJ EM EXE FIX FA INT " +
  "ISC ICN LOG G INP PIE T20 PYI PT Q RSE RET SLF SIM SLOT TID TD TC ARG PTH FLY I " +
  "C90 NPY PD N PERF E W DOC D F PGH PL PLC PLE PLR PLW UP FURB RUF TRY"
).split(" ").sort((a, b) => b.length - a.length);

/**
 * ruff 0.16.9's redirects of old selectors (`rule_redirects.rs`), which a configuration may still use: `old>new`, an
 * exact selector each (`TCH` and `TCH004` are listed; `TCH0` is not).
 */
const REDIRECTS = new Map(
  (
    "SIM111>SIM110 C9>C90 T1>T10 T2>T20 R>RET R5>RET5 R50>RET50 R501>RET501 R502>RET502 R503>RET503 R504>RET504 " +
    "R505>RET505 R506>RET506 R507>RET507 R508>RET508 IC>ICN IC0>ICN0 IC00>ICN00 IC001>ICN001 IC002>ICN001 " +
    "IC003>ICN001 IC004>ICN001 U>UP U0>UP0 U00>UP00 U001>UP001 U003>UP003 U004>UP004 U005>UP005 U006>UP006 " +
    "U007>UP007 U008>UP008 U009>UP009 U01>UP01 U010>UP010 U011>UP011 U012>UP012 U013>UP013 U014>UP014 " +
    "U015>UP015 U016>UP016 U017>UP017 U019>UP019 I2>TID2 I25>TID25 I252>TID252 M>RUF100 M0>RUF100 M001>RUF100 " +
    "PDV>PD PDV0>PD0 PDV002>PD002 PDV003>PD003 PDV004>PD004 PDV007>PD007 PDV008>PD008 PDV009>PD009 PDV01>PD01 " +
    "PDV010>PD010 PDV011>PD011 PDV012>PD012 PDV013>PD013 PDV015>PD015 PDV9>PD9 PDV90>PD90 PDV901>PD901 TYP>TC " +
    "TYP001>TC001 RUF004>B026 PIE802>C419 PLW0130>B033 T001>FIX001 T002>FIX002 T003>FIX003 T004>FIX004 " +
    "RUF011>B035 TRY200>B904 PGH001>S307 PGH002>G010 TRIO>ASYNC1 TRIO1>ASYNC1 TRIO10>ASYNC10 TRIO100>ASYNC100 " +
    "TRIO105>ASYNC105 TRIO109>ASYNC109 TRIO11>ASYNC11 TRIO110>ASYNC110 TRIO115>ASYNC115 PLR1701>SIM101 " +
    "PLW0117>PLW0177 RUF025>C420 TRY302>TRY203 TCH>TC TCH001>TC001 TCH002>TC002 TCH003>TC003 TCH004>TC004 " +
    "TCH005>TC005 TCH006>TC010 TCH010>TC010 RUF035>S704"
  ).split(" ").map((pair) => pair.split(">") as [string, string]),
);

/** The selector ruff 0.16.9 reads for `selector` (its redirect target), or `selector` itself. */
export function redirected(selector: string): string {
  return REDIRECTS.get(selector) ?? selector;
}

/** The linter of a selector or code: its longest linter prefix (pylint's categories are pylint). */
function linterOf(text: string): string | undefined {
  const prefix = LINTERS.find((p) => text.startsWith(p));
  return prefix !== undefined && /^PL[CERW]$/.test(prefix) ? "PL" : prefix;
}

/** Whether ruff's selector `selector` selects rule `code` (as `ruff check` names it: `D100`, `PLC0414`). */
export function ruffSelects(selector: string, code: string): boolean {
  if (selector === "ALL") return true;
  if (selector === "C" || selector === "T") {
    const linter = linterOf(code);
    return selector === "C" ? linter === "C4" || linter === "C90" : linter === "T10" || linter === "T20";
  }
  const own = redirected(selector);
  const linter = linterOf(own);
  return linter !== undefined && linter === linterOf(code) && code.startsWith(own);
}
