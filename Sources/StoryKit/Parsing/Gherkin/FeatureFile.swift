/// The entry point for Gherkin `.feature` files: parses one, as the
/// official Cucumber parser does, and compiles it to stories.
enum FeatureFile {
    /// Whether a path names a feature file: `.feature`, or Gherkin in
    /// Markdown, `.feature.md`.
    static func isFeature(_ path: String) -> Bool {
        path.hasSuffix(".feature") || path.hasSuffix(".feature.md")
    }

    /// Whether a path names a feature file in Markdown (`.feature.md`).
    static func isMarkdown(_ path: String) -> Bool {
        path.hasSuffix(".feature.md")
    }

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
        let (document, errors, nextID) = GherkinParser.parse(text, markdown: isMarkdown(path))
        guard let document, errors.isEmpty else { return ([], errors.map { $0.diagnostic(path: path) }, nil, nextID) }
        return (StoryCompiler.compile(document, path: path), document.keywordTypos.map { $0.diagnostic(path: path) }, document, nextID)
    }

    /// The compiled pickles as NDJSON lines in the official shape
    /// (`{"pickle":{...}}`), keys sorted as in the test data; or the errors.
    static func pickleLines(_ text: String, uri: String) -> (lines: [String], diagnostics: [Diagnostic]) {
        var ids = 0
        return pickleLines(text, uri: uri, ids: &ids)
    }

    /// The compiled pickles of one file of a stream of many, as NDJSON lines.
    /// `ids`: the first id of the file, moved on past its last (ids go on
    /// from file to file in one stream, as the official parser's do).
    static func pickleLines(_ text: String, uri: String, ids: inout Int) -> (lines: [String], diagnostics: [Diagnostic]) {
        let (document, errors, nextID) = GherkinParser.parse(text, markdown: isMarkdown(uri))
        guard let document, errors.isEmpty else { return ([], errors.map { $0.diagnostic(path: uri) }) }
        let pickles = PickleCompiler.compile(document, uri: uri, firstID: nextID)
        let offset = ids
        ids += (pickles.map(\.id).max() ?? nextID - 1) + 1
        return (pickles.map { $0.jsonLine(idOffset: offset) }, [])
    }

    /// Parses and compiles a file: its pickles, or its errors.
    static func compile(_ text: String, uri: String) -> (pickles: [Pickle], errors: [GherkinError]) {
        let (document, errors, nextID) = GherkinParser.parse(text, markdown: isMarkdown(uri))
        guard let document, errors.isEmpty else { return ([], errors) }
        return (PickleCompiler.compile(document, uri: uri, firstID: nextID), [])
    }
}
