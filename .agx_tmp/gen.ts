import { writeRulesCorpus } from "../tests/bench/_rules_corpus.ts";
await writeRulesCorpus("/tmp/tmp.8Aym3Zo8ca", 300);
