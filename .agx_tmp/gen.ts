import { writeRulesCorpus } from "../tests/bench/_rules_corpus.ts";
await writeRulesCorpus("/tmp/tmp.XmmW5th4IQ", 2000);
