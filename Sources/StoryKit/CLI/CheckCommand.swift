/// `storyrun check`: matches every step of the stories without running any,
/// and lists undefined steps, ambiguous steps and unused definitions.
enum CheckCommand {
    /// Runs the check; exits 1 when a step is undefined or ambiguous.
    /// - Parameter jsonPath: Where `--json FILE` writes what the check
    ///   prints, as JSON; nil for none.
    static func run(
        paths: [String], registry: StepRegistry, style: TextStyle, jsonPath: String? = nil, listsLibraryUnused: Bool = false,
        output: (String) -> Void
    ) -> ExitStatus {
        var matcher = CachingMatcher(registry: registry)
        var isUsed = Array(repeating: false, count: registry.definitions.count)
        var undefined = 0, ambiguous = 0, rejected = 0
        var snippets: [Snippet] = []
        var json = CheckJSON()
        let (files, pathDiagnostics) = StoryLoader.files(at: paths)
        if let jsonPath, let problem = StorySelection.reportOverwritingStories([ReportRequest(format: .json, path: jsonPath)], files: files) {
            output(problem.rendered(style: style))
            return .inputError
        }
        for diagnostic in pathDiagnostics { output(diagnostic.rendered(style: style)) }
        json.diagnostics += pathDiagnostics
        rejected += pathDiagnostics.count
        for file in files {
            let (stories, diagnostics) = StoryLoader.parseFile(at: file)
            for diagnostic in diagnostics { output(diagnostic.rendered(style: style)) }
            json.diagnostics += diagnostics
            rejected += diagnostics.filter(\.isError).count
            for step in stories.flatMap(\.steps) {
                let result = matcher.matches(step)
                if let winner = result.winner { isUsed[winner.definition.id] = true }
                if result.isUndefined {
                    undefined += 1
                    output("\(step.location.displayFileAndLine): \(style.paint("undefined:", .yellow)) \(step.line)")
                    let snippet = Snippet.suggested(for: step, in: registry)
                    json.undefined.append(.object([
                        ("location", CheckJSON.location(step.location)), ("step", .string(step.line)),
                        ("snippet", .string(snippet.code())),
                    ]))
                    if !snippets.contains(snippet) { snippets.append(snippet) }
                } else if result.isAmbiguous {
                    ambiguous += 1
                    let diagnostic = AmbiguityDiagnostic.make(step: step, result: result, isStrict: true)
                    output(diagnostic.rendered(style: style))
                    json.ambiguous.append(.object([
                        ("location", CheckJSON.location(step.location)), ("step", .string(step.line)),
                        ("matches", .array(result.matches.map { CheckJSON.definition($0.definition) })),
                        ("help", diagnostic.help.map { .string($0) } ?? .null),
                    ]))
                }
            }
        }
        // A path that named no story file: which definitions its stories
        // would use is unknown, so none is said to be unused.
        // A step library's are noise to a user who did not write them.
        let unused = pathDiagnostics.isEmpty
            ? registry.definitions.filter { !isUsed[$0.id] && (listsLibraryUnused || !$0.isFromLibrary) } : []
        if !pathDiagnostics.isEmpty { output("Unused step definitions are not listed: a path above names no story file.") }
        for definition in unused {
            output("\(definition.location.displayFileAndLine): \(style.paint("unused:", .gray)) no step runs \"\(definition.pattern)\"")
        }
        if !snippets.isEmpty {
            output("")
            output("Define the undefined steps with these snippets in a step class:")
            for snippet in snippets { output(""); output(snippet.code()) }
        }
        output("")
        output("check: \(undefined) undefined, \(ambiguous) ambiguous, \(unused.count) unused")
        if let jsonPath {
            json.unused = unused.map(CheckJSON.definition)
            do {
                try AtomicFile.write(json.value.text + "\n", to: jsonPath)
            } catch {
                output(error.rendered(style: style))
                return .inputError
            }
        }
        if rejected > 0 { return .inputError }
        return undefined + ambiguous > 0 ? .storyFailed : .success
    }
}

/// What `check --json FILE` writes: the check's findings, in the order printed.
private struct CheckJSON {
    var diagnostics: [Diagnostic] = []
    var undefined: [JSONValue] = []
    var ambiguous: [JSONValue] = []
    var unused: [JSONValue] = []

    var value: JSONValue {
        .object([
            ("diagnostics", .array(diagnostics.map { diagnostic in
                .object([
                    ("severity", .string(diagnostic.severity.rawValue)),
                    ("location", diagnostic.location.map(Self.location) ?? .null),
                    ("problem", .string(diagnostic.problem)),
                    ("help", diagnostic.help.map { .string($0) } ?? .null),
                ])
            })),
            ("undefined", .array(undefined)),
            ("ambiguous", .array(ambiguous)),
            ("unused", .array(unused)),
            ("summary", .object([
                ("undefined", .int(Int64(undefined.count))), ("ambiguous", .int(Int64(ambiguous.count))),
                ("unused", .int(Int64(unused.count))),
            ])),
        ])
    }

    static func location(_ location: SourceLocation) -> JSONValue {
        .object([("file", .string(location.file)), ("line", .int(Int64(location.line)))])
    }

    static func definition(_ definition: StepDefinition) -> JSONValue {
        .object([
            ("pattern", .string(definition.pattern)), ("stepClass", .string(definition.ownerName)),
            ("location", location(definition.location)),
        ])
    }
}
