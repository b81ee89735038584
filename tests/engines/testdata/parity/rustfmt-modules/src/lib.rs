#[path = "../shared/common.rs"]
mod common;
#[rustfmt::skip]
mod tables;

pub fn is_stop_word(word: &str) -> bool {
    common::normalise(word).is_some_and(|w| tables::WORDS.contains(&w.as_str()))
}
