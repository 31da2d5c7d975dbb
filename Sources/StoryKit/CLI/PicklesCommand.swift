/// `storyrun --format pickles PATH…`: prints the stories each file compiles
/// to as NDJSON in the official Cucumber pickle shape (`{"pickle":{…}}`),
/// and each parse error as `{"parseError":{…}}`, so storyrun can be diffed
/// against any other Gherkin implementation.
enum PicklesCommand {
    /// Prints the pickles; exits 2 when a file has errors.
    static func run(paths: [String], output: (String) -> Void) -> ExitStatus {
        let (files, problems) = StoryLoader.files(at: paths)
        var status: ExitStatus = problems.isEmpty ? .success : .inputError
        for problem in problems { output(problem.rendered()) }
        // Ids go on from file to file: one stream, as the official parser's.
        var ids = 0
        for file in files {
            let text: String
            switch StoryLoader.readText(at: file) {
            case .success(let read): text = read
            case .failure(let diagnostic):
                // Not a regular file, unreadable, or not UTF-8: the reason.
                status = .inputError
                output(parseError(diagnostic, uri: file))
                continue
            }
            let (lines, diagnostics): ([String], [Diagnostic]) =
                FeatureFile.isFeature(file) ? FeatureFile.pickleLines(text, uri: file, ids: &ids) : storiesPickles(text, uri: file, ids: &ids)
            lines.forEach(output)
            for diagnostic in diagnostics where diagnostic.isError {
                status = .inputError
                output(parseError(diagnostic, uri: file))
            }
        }
        return status
    }

    /// A parse error as the official parser reports it.
    static func parseError(_ diagnostic: Diagnostic, uri: String) -> String {
        let line = diagnostic.location?.line ?? 1
        let column = diagnostic.location?.column ?? 0
        return JSONValue.object([
            ("parseError", .object([
                ("message", .string("(\(line):\(column)): \(diagnostic.problem)")),
                ("source", .object([
                    // As the official parser: no column when the error has none (end of file).
                    ("location", .object((column > 0 ? [("column", JSONValue.int(Int64(column)))] : []) + [("line", .int(Int64(line)))])),
                    ("uri", .string(uri)),
                ])),
            ]))
        ]).text
    }

    /// The pickles of a `.stories` file, in the same shape.
    /// `ids`: the first id, moved on past the last.
    static func storiesPickles(_ text: String, uri: String, ids: inout Int) -> ([String], [Diagnostic]) {
        let (stories, diagnostics) = StoriesParser.parse(text, path: uri)
        var id = ids
        defer { ids = id }
        func nextID() -> JSONValue { defer { id += 1 }; return .string(String(id)) }
        let lines = stories.map { story in
            let steps: [JSONValue] = story.steps.map { step in
                .object([
                    ("astNodeIds", .array([])), ("id", nextID()), ("text", .string(step.text)),
                    ("type", .string(pickleType(step.kind))),
                ])
            }
            return JSONValue.object([
                ("pickle", .object([
                    ("astNodeIds", .array([])), ("id", nextID()), ("language", .string("en")),
                    ("location", .object([("column", .int(Int64(story.location.column))), ("line", .int(Int64(story.location.line)))])),
                    ("name", .string(story.name)), ("steps", .array(steps)),
                    ("tags", .array(story.tags.map { .object([("astNodeId", .string("")), ("name", .string($0))]) })),
                    ("uri", .string(uri)),
                ]))
            ]).text
        }
        return (lines, diagnostics)
    }

    private static func pickleType(_ kind: Step.Kind) -> String {
        switch kind {
        case .context, .role: "Context"
        case .action: "Action"
        case .outcome: "Outcome"
        case .unknown: "Unknown"
        }
    }
}
