/// The entry point for Gherkin `.feature` files: parses one, as the
/// official Cucumber parser does, and compiles it to stories.
enum FeatureFile {
    /// Parses a feature file and compiles it to runnable stories (one per
    /// pickle, compiled straight from the syntax tree by ``StoryCompiler``).
    ///
    /// A file with errors yields all of its diagnostics and no stories.
    static func parse(_ text: String, path: String) -> (stories: [Story], diagnostics: [Diagnostic]) {
        let parsed = parseKeepingTree(text, path: path)
        return (parsed.stories, parsed.diagnostics)
    }

    /// Parses a feature file and compiles it to stories, as
    /// ``parse(_:path:)`` does, and gives its syntax tree too (nil when the
    /// file has errors), with the first id its pickles take.
    static func parseKeepingTree(_ text: String, path: String)
        -> (stories: [Story], diagnostics: [Diagnostic], document: GherkinDocument?, nextID: Int)
    {
        let (document, errors, nextID) = GherkinParser.parse(text)
        guard let document, errors.isEmpty else { return ([], errors.map { $0.diagnostic(path: path) }, nil, nextID) }
        return (StoryCompiler.compile(document, path: path), [], document, nextID)
    }

    /// The compiled pickles as NDJSON lines in the official shape
    /// (`{"pickle":{...}}`), keys sorted as in the test data; or the errors.
    static func pickleLines(_ text: String, uri: String) -> (lines: [String], diagnostics: [Diagnostic]) {
        let (pickles, errors) = compile(text, uri: uri)
        guard errors.isEmpty else { return ([], errors.map { $0.diagnostic(path: uri) }) }
        return (pickles.map(\.jsonLine), [])
    }

    /// Parses and compiles a file: its pickles, or its errors.
    static func compile(_ text: String, uri: String) -> (pickles: [Pickle], errors: [GherkinError]) {
        let (document, errors, nextID) = GherkinParser.parse(text)
        guard let document, errors.isEmpty else { return ([], errors) }
        return (PickleCompiler.compile(document, uri: uri, firstID: nextID), [])
    }
}
