/// The entry point for Gherkin `.feature` files: parses one, as the
/// official Cucumber parser does, and compiles it to stories.
enum FeatureFile {
    /// Parses a feature file and compiles it to runnable stories (one per pickle).
    ///
    /// A file with errors yields all of its diagnostics and no stories.
    static func parse(_ text: String, path: String) -> (stories: [Story], diagnostics: [Diagnostic]) {
        let (pickles, errors, groupName) = compile(text, uri: path)
        guard errors.isEmpty else { return ([], errors.map { $0.diagnostic(path: path) }) }
        var keywords: [String: String] = [:]
        return (pickles.map { story(for: $0, path: path, groupName: groupName, keywords: &keywords) }, [])
    }

    /// The compiled pickles as NDJSON lines in the official shape
    /// (`{"pickle":{...}}`), keys sorted as in the test data; or the errors.
    static func pickleLines(_ text: String, uri: String) -> (lines: [String], diagnostics: [Diagnostic]) {
        let (pickles, errors, _) = compile(text, uri: uri)
        guard errors.isEmpty else { return ([], errors.map { $0.diagnostic(path: uri) }) }
        return (pickles.map(\.jsonLine), [])
    }

    /// Parses and compiles a file: its pickles, or its errors.
    static func compile(_ text: String, uri: String) -> (pickles: [Pickle], errors: [GherkinError], featureName: String) {
        let (document, errors, nextID) = GherkinParser.parse(text)
        guard let document, errors.isEmpty else { return ([], errors, "") }
        return (
            PickleCompiler.compile(document, uri: uri, firstID: nextID), [], document.feature?.name ?? ""
        )
    }

    /// Makes the story that runs a pickle.
    ///
    /// - Parameter keywords: A cache of trimmed step keywords, shared by the
    ///   stories of a file.
    static func story(
        for pickle: Pickle, path: String, groupName: String, keywords: inout [String: String]
    ) -> Story {
        let location = SourceLocation(file: path, line: pickle.location.line, column: pickle.location.column)
        var steps: [Step] = []
        steps.reserveCapacity(pickle.steps.count)
        for step in pickle.steps {
            let source = step.source
            let kind: Step.Kind =
                switch step.type {
                case .context: .context
                case .action: .action
                case .outcome: .outcome
                case .unknown: .unknown
                }
            let keyword: String
            if let known = keywords[source.keyword] {
                keyword = known
            } else {
                keyword = trimmed(source.keyword)
                keywords[source.keyword] = keyword
            }
            steps.append(Step(
                keyword: keyword, kind: kind, text: step.text,
                location: SourceLocation(file: path, line: source.location.line, column: source.location.column),
                attachment: attachment(for: step, path: path)))
        }
        return Story(
            id: location.fileAndLine, name: pickle.name, tags: pickle.tags.map(\.name), location: location,
            steps: steps, groupName: groupName)
    }

    /// The step's doc string or data table; with both, the one written first.
    private static func attachment(for step: Pickle.Step, path: String) -> StepAttachment? {
        let source = step.source
        var docString: DocString?
        if let content = step.docString, let written = source.docString {
            docString = DocString(
                content: content.content, mediaType: content.mediaType, delimiter: written.delimiter,
                location: SourceLocation(file: path, line: written.location.line, column: written.location.column))
        }
        var dataTable: DataTable?
        if let rows = step.dataTable, let written = source.dataTable {
            dataTable = DataTable(
                rows: rows,
                location: SourceLocation(file: path, line: written.location.line, column: written.location.column))
        }
        switch (docString, dataTable) {
        case (let doc?, let table?):
            return doc.location.line < table.location.line ? .docString(doc) : .dataTable(table)
        case (let doc?, nil): return .docString(doc)
        case (nil, let table?): return .dataTable(table)
        case (nil, nil): return nil
        }
    }

    private static func trimmed(_ keyword: String) -> String {
        var text = Substring(keyword)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return String(text)
    }
}
