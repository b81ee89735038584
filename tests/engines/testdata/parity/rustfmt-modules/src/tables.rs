pub const WORDS: &[&str] = &[
    "a",
    "an",
    "the",
];
