fn greeting(name: &str, greeting_word: &str, punctuation_mark: &str) -> String {
    format!("{greeting_word}, {name}{punctuation_mark}")
}

fn main() {
    let message = greeting(
        "a reader of this crate's documentation",
        "Hello and welcome",
        "!",
    );
    println!("{message}");
}
