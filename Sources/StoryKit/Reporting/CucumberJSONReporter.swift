/// Writes Cucumber JSON (`cucumber --format json`): one feature per story
/// file, one element per story, so existing Cucumber dashboards read it.
public struct CucumberJSONReporter: Reporter {
    private let path: String
    private var files: [String] = []
    private var results: [String: [StoryResult]] = [:]

    /// Creates a reporter that writes to a path when the run is over.
    public init(path: String) {
        self.path = path
    }

    public mutating func handle(_ event: RunEvent) {
        guard case .storyFinished(let result) = event else { return }
        let file = result.story.location.file
        if results[file] == nil { files.append(file) }
        results[file, default: []].append(result)
    }

    public mutating func finish() throws {
        try AtomicFile.write(document.text + "\n", to: path)
    }

    /// The report as a JSON value.
    var document: JSONValue {
        .array(files.map { file in feature(file: file, results: results[file] ?? []) })
    }

    private func feature(file: String, results: [StoryResult]) -> JSONValue {
        let name = results.first?.story.groupName ?? file
        return .object([
            ("uri", .string(file)),
            ("id", .string(Self.slug(name))),
            ("keyword", .string(file.hasSuffix(".feature") ? "Feature" : "Stories")),
            ("name", .string(name)),
            ("description", .string("")),
            ("line", .int(1)),
            ("tags", .array([])),
            ("elements", .array(results.map { element($0, featureID: Self.slug(name)) })),
        ])
    }

    private func element(_ result: StoryResult, featureID: String) -> JSONValue {
        let story = result.story
        return .object([
            ("id", .string("\(featureID);\(Self.slug(story.name))")),
            ("keyword", .string(story.location.file.hasSuffix(".feature") ? "Scenario" : "Story")),
            ("name", .string(story.name)),
            ("description", .string("")),
            ("line", .int(Int64(story.location.line))),
            ("type", .string("scenario")),
            ("tags", .array(story.tags.map { .object([("name", .string($0)), ("line", .int(Int64(story.location.line - 1)))]) })),
            ("steps", .array(result.steps.map(step))),
        ])
    }

    private func step(_ result: StepResult) -> JSONValue {
        var match: [(String, JSONValue)] = []
        if let winner = result.match {
            match.append(("location", .string(winner.location.displayFileAndLine)))
            match.append(("pattern", .string(winner.pattern)))
            match.append(("arguments", .array(winner.arguments.map { .object([("val", .optional($0))]) })))
        }
        var outcome: [(String, JSONValue)] = [
            ("status", .string(result.status == .ambiguous ? "failed" : result.status.rawValue)),
            ("duration", .int(Int64(clamping: result.duration))),
        ]
        if let error = result.error {
            let place = error.location.map { "\n\($0.displayFileAndLine)" } ?? ""
            outcome.append(("error_message", .string(error.message + place + "\n\(result.step.location.displayFileAndLine)")))
        }
        return .object([
            ("keyword", .string(result.step.keyword + " ")),
            ("name", .string(result.step.text)),
            ("line", .int(Int64(result.step.location.line))),
            ("match", .object(match)),
            ("result", .object(outcome)),
        ])
    }

    /// A lowercase id with dashes for blanks, as Cucumber makes them.
    static func slug(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-")
    }
}
