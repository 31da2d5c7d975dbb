import Foundation

/// Writes Cucumber Messages: one JSON envelope per line (NDJSON), the stream
/// Cucumber's own tools (HTML formatter, messages viewers) read.
///
/// The stream holds `meta`, a `source` per story file, a `pickle` per story,
/// a `stepDefinition` per definition that matched a step, then the run:
/// `testRunStarted`, a `testCase` per story, and per story
/// `testCaseStarted`, `testStepStarted`/`testStepFinished` per step and
/// `testCaseFinished`, and finally `testRunFinished`. Timestamps are the
/// start time plus the durations the events carry, so they are stable when
/// the clock is injected. IDs count up from 1.
public struct MessagesReporter: Reporter {
    /// The version of the Cucumber Messages protocol written.
    static let protocolVersion = "27.0.0"

    private let path: String
    private let startTime: Date
    private var results: [StoryResult] = []
    private var summary = RunSummary()

    /// Creates a reporter that writes to a path when the run is over.
    /// - Parameters:
    ///   - path: The file to write.
    ///   - startTime: The wall-clock time the run started.
    public init(path: String, startTime: Date) {
        self.path = path
        self.startTime = startTime
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result): results.append(result)
        case .runFinished(let summary): self.summary = summary
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .diagnostic, .runHookFinished: break
        }
    }

    public mutating func finish() throws {
        try AtomicFile.write(lines.map { $0.text + "\n" }.joined(), to: path)
    }

    /// The envelopes, in the order they are written.
    var lines: [JSONValue] {
        var ids = IDs()
        var out: [JSONValue] = [Self.envelope("meta", Self.meta)]
        var files: [String] = []
        for result in results where !files.contains(result.story.location.file) {
            files.append(result.story.location.file)
        }
        for file in files {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            out.append(Self.envelope("source", .object([
                ("uri", .string(SourceLocation.relativePath(file))), ("data", .string(text)),
                ("mediaType", .string("text/x.cucumber.gherkin+plain")),
            ])))
        }
        let pickles = results.map { Pickle(result: $0, ids: &ids) }
        out += pickles.map { Self.envelope("pickle", $0.json) }

        var definitions: [MatchInfo.Key: String] = [:]
        for result in results {
            for match in result.steps.flatMap({ [$0.match].compactMap { $0 } + $0.alsoMatched }) where definitions[match.key] == nil {
                let id = ids.next()
                definitions[match.key] = id
                out.append(Self.envelope("stepDefinition", .object([
                    ("id", .string(id)),
                    ("pattern", .object([("source", .string(match.pattern)), ("type", .string("REGULAR_EXPRESSION"))])),
                    ("sourceReference", .object([
                        ("uri", .string(match.location.displayPath)),
                        ("location", .object([("line", .int(Int64(match.location.line)))])),
                    ])),
                ])))
            }
        }

        let runID = ids.next()
        var clock = Clock(start: startTime)
        out.append(Self.envelope("testRunStarted", .object([("timestamp", clock.timestamp), ("id", .string(runID))])))
        var cases: [(id: String, stepIDs: [String])] = []
        for pickle in pickles {
            let caseID = ids.next()
            let stepIDs = pickle.stepIDs.map { _ in ids.next() }
            cases.append((caseID, stepIDs))
            let steps: [JSONValue] = zip(stepIDs, zip(pickle.stepIDs, pickle.result.steps)).map { id, pair in
                let matches = ([pair.1.match].compactMap { $0 } + pair.1.alsoMatched).compactMap { definitions[$0.key] }
                return .object([
                    ("id", .string(id)), ("pickleStepId", .string(pair.0)),
                    ("stepDefinitionIds", .array(matches.map(JSONValue.string))),
                ])
            }
            out.append(Self.envelope("testCase", .object([
                ("id", .string(caseID)), ("pickleId", .string(pickle.id)),
                ("testSteps", .array(steps)), ("testRunStartedId", .string(runID)),
            ])))
        }
        for (pickle, testCase) in zip(pickles, cases) {
            let startedID = ids.next()
            let caseStart = clock.nanoseconds
            out.append(Self.envelope("testCaseStarted", .object([
                ("attempt", .int(0)), ("id", .string(startedID)),
                ("testCaseId", .string(testCase.id)), ("timestamp", clock.timestamp),
            ])))
            for (stepID, step) in zip(testCase.stepIDs, pickle.result.steps) {
                let reference: [(String, JSONValue)] = [("testCaseStartedId", .string(startedID)), ("testStepId", .string(stepID))]
                out.append(Self.envelope("testStepStarted", .object(reference + [("timestamp", clock.timestamp)])))
                clock.nanoseconds &+= step.duration
                out.append(Self.envelope("testStepFinished", .object(reference + [
                    ("testStepResult", Self.result(step)), ("timestamp", clock.timestamp),
                ])))
            }
            clock.nanoseconds = max(clock.nanoseconds, caseStart &+ pickle.result.duration)
            out.append(Self.envelope("testCaseFinished", .object([
                ("testCaseStartedId", .string(startedID)), ("timestamp", clock.timestamp), ("willBeRetried", .bool(false)),
            ])))
        }
        clock.nanoseconds = max(clock.nanoseconds, summary.duration)
        out.append(Self.envelope("testRunFinished", .object([
            ("success", .bool(!summary.hasFailures(strict: false))), ("timestamp", clock.timestamp),
            ("testRunStartedId", .string(runID)),
        ])))
        return out
    }

    private static func envelope(_ name: String, _ message: JSONValue) -> JSONValue {
        .object([(name, message)])
    }

    private static func result(_ step: StepResult) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("duration", Clock.json(step.duration)),
            ("status", .string(step.status.rawValue.uppercased())),
        ]
        if let error = step.error {
            let place = error.location.map { "\nat \($0.displayFileAndLine)" } ?? ""
            members.append(("message", .string(error.message + place + "\n\(step.step.location.displayFileAndLine)")))
        }
        return .object(members)
    }

    /// The `meta` message: storyrun, Swift, and the host's system and processor.
    static var meta: JSONValue {
        .object([
            ("protocolVersion", .string(protocolVersion)),
            ("implementation", .object([("name", .string("storyrun")), ("version", .string(StoryRun.version))])),
            ("runtime", .object([("name", .string("swift"))])),
            ("os", .object([("name", .string(hostSystem))])),
            ("cpu", .object([("name", .string(hostProcessor))])),
        ])
    }

    /// The operating system storyrun was built for.
    static var hostSystem: String {
        #if os(Linux)
        "linux"
        #elseif os(macOS)
        "darwin"
        #else
        "unknown"
        #endif
    }

    /// The processor architecture storyrun was built for.
    static var hostProcessor: String {
        #if arch(x86_64)
        "x64"
        #elseif arch(arm64)
        "arm64"
        #else
        "unknown"
        #endif
    }
}
