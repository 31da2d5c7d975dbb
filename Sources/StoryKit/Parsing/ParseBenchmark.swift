/// The parser as the parse benchmark (`storyrun-parse-bench`) calls it: the
/// text of one story file to its stories, without reading the file, so the
/// benchmark times parsing and compiling alone.
///
/// Not part of the library's API: imported with `@_spi(Benchmarks)`.
@_spi(Benchmarks) public enum ParseBenchmark {
    /// Parses the text of a `.feature` or `.stories` file (chosen by the
    /// path's extension), as a run does: its stories and its diagnostics.
    public static func parse(_ text: String, path: String) -> (stories: [Story], diagnostics: [Diagnostic]) {
        StoryLoader.parse(text, path: path)
    }
}
