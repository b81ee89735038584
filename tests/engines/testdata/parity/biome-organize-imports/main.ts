import { b } from "./b.ts";
import { a } from "./a.ts";

export const sum = a + b;
