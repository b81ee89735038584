pub fn normalise(word: &str) -> Option<String> {
    let trimmed = word.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_lowercase())
}
