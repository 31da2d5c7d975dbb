import Foundation

/// Writes Cucumber Messages: one JSON envelope per line (NDJSON), the stream
/// Cucumber's own tools (HTML formatter, messages viewers) read.
///
/// The stream holds `meta`, a `source` per story file, a `pickle` per story,
/// a `parameterType` per parameter type the step classes defined, a
/// `stepDefinition` per definition (every one in registration order when
/// the registry is known, else those the results name) and a `hook` per
/// hook, then the run:
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
    /// Before-run hooks (those that finished before any story) and after-run hooks.
    private var runHooks: (before: [HookResult], after: [HookResult]) = ([], [])
    /// The run's definitions, hooks and parameter types; nil in `merge`,
    /// which knows only what the results name.
    private let registry: StepRegistry?
    /// Whether `--strict` is on: then undefined and ambiguous steps make
    /// the run unsuccessful, as they do Cucumber's.
    private let isStrict: Bool

    /// Creates a reporter that writes to a path when the run is over.
    /// - Parameters:
    ///   - path: The file to write.
    ///   - startTime: The wall-clock time the run started.
    public init(path: String, startTime: Date) {
        self.init(path: path, startTime: startTime, registry: nil)
    }

    init(path: String, startTime: Date, registry: StepRegistry?, isStrict: Bool = false) {
        self.path = path
        self.startTime = startTime
        self.registry = registry
        self.isStrict = isStrict
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result): results.append(result)
        case .runFinished(let summary): self.summary = summary
        case .runHookFinished(let hook):
            if hook.kind.hasPrefix("before") { runHooks.before.append(hook) } else { runHooks.after.append(hook) }
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .diagnostic: break
        }
    }

    public mutating func finish() throws {
        try AtomicFile.write(lines.map { $0.text + "\n" }.joined(), to: path)
    }

    /// The envelopes, in the order they are written: `meta`; per file its
    /// `source`, `gherkinDocument` and `pickle`s; the `stepDefinition`s and
    /// `hook`s; then the run, attempt by attempt.
    var lines: [JSONValue] {
        var ids = IDs()
        var out: [JSONValue] = [Self.envelope("meta", Self.meta)]
        var files: [String] = []
        var byFile: [String: [StoryResult]] = [:]
        for result in results {
            let file = result.story.location.file
            if byFile[file] == nil { files.append(file) }
            byFile[file, default: []].append(result)
        }
        var cache = StoryFileInfo.Cache()
        var pickles: [String: PickleIDs] = [:]  // by story id
        for file in files {
            let info = cache.info(file)
            let uri = SourceLocation.relativePath(file)
            let stories = byFile[file] ?? []
            out.append(Self.envelope("source", .object([
                ("uri", .string(uri)), ("data", .string(info.text)),
                ("mediaType", .string("text/x.cucumber.gherkin+plain")),
            ])))
            if info.feature != nil, stories.allSatisfy({ info.place(of: $0.story) != nil }) {
                let gherkin = GherkinFile(info: info, uri: uri, base: ids.reserve(info.idCount))
                out.append(Self.envelope("gherkinDocument", gherkin.document))
                for result in stories {
                    let pickle = Self.pickle(info.place(of: result.story)!.pickle, file: gherkin)
                    pickles[result.story.id] = pickle
                    out.append(Self.envelope("pickle", pickle.json))
                }
            } else {
                let (document, filePickles) = Self.synthesized(stories, uri: uri, ids: &ids)
                out.append(Self.envelope("gherkinDocument", document))
                for (result, pickle) in zip(stories, filePickles) {
                    pickles[result.story.id] = pickle
                    out.append(Self.envelope("pickle", pickle.json))
                }
            }
        }

        // The parameter types the step classes defined.
        for type in registry?.parameterTypes ?? [] {
            var members: [(String, JSONValue)] = [
                ("id", .string(ids.next())), ("name", .string(type.name)),
                ("regularExpressions", .array(type.regexps.map(JSONValue.string))),
                ("preferForRegularExpressionMatch", .bool(type.preferForRegexpMatch)),
                ("useForSnippets", .bool(type.useForSnippets)),
            ]
            if let location = type.location { members.append(("sourceReference", Self.reference(location))) }
            out.append(Self.envelope("parameterType", .object(members)))
        }

        // Every step definition: all of the registry's in registration
        // order; without a registry, those that matched, then those no story used.
        var definitions: [MatchInfo.Key: String] = [:]
        let registered = Dictionary((registry?.definitions ?? []).map { (MatchInfo.Key(pattern: $0.pattern, location: $0.location), $0) }) { first, _ in first }
        func define(_ pattern: String, _ location: SourceLocation) {
            let key = MatchInfo.Key(pattern: pattern, location: location)
            guard definitions[key] == nil else { return }
            let id = ids.next()
            definitions[key] = id
            let type = registered[key]?.syntax == .expression ? "CUCUMBER_EXPRESSION" : "REGULAR_EXPRESSION"
            out.append(Self.envelope("stepDefinition", .object([
                ("id", .string(id)),
                ("pattern", .object([("source", .string(pattern)), ("type", .string(type))])),
                ("sourceReference", Self.reference(location)),
            ])))
        }
        for definition in registry?.definitions ?? [] { define(definition.pattern, definition.location) }
        for result in results {
            for attempt in result.allAttempts {
                for step in attempt.testSteps.compactMap(\.stepResult) {
                    for match in [step.match].compactMap({ $0 }) + step.alsoMatched { define(match.pattern, match.location) }
                }
            }
        }
        for unused in summary.unusedDefinitions { define(unused.pattern, unused.location) }

        var hooks: [HookKey: String] = [:]
        func defineHook(_ hook: HookResult, tags: String? = nil, name: String? = nil) {
            let key = HookKey(kind: hook.kind, location: hook.location)
            guard hooks[key] == nil else { return }
            let id = ids.next()
            hooks[key] = id
            var members: [(String, JSONValue)] = [
                ("id", .string(id)), ("type", .string(Self.hookType(hook.kind))), ("sourceReference", Self.reference(hook.location)),
            ]
            if let tags { members.append(("tagExpression", .string(tags))) }
            if let name { members.append(("name", .string(name))) }
            out.append(Self.envelope("hook", .object(members)))
        }
        for hook in registry?.hooks ?? [] {
            defineHook(HookResult(kind: hook.kind.rawValue, location: hook.location, status: .passed, error: nil, duration: 0), tags: hook.tags, name: hook.name)
        }
        for hook in runHooks.before { defineHook(hook) }
        for result in results { for attempt in result.allAttempts { for hook in attempt.testSteps.compactMap(\.hookResult) { defineHook(hook) } } }
        for hook in runHooks.after { defineHook(hook) }

        let runID = ids.next()
        var clock = Clock(start: startTime)
        out.append(Self.envelope("testRunStarted", .object([("timestamp", clock.timestamp), ("id", .string(runID))])))
        func runHook(_ hook: HookResult) {
            let startedID = ids.next()
            out.append(Self.envelope("testRunHookStarted", .object([
                ("id", .string(startedID)), ("testRunStartedId", .string(runID)),
                ("hookId", .string(hooks[HookKey(kind: hook.kind, location: hook.location)] ?? "")), ("timestamp", clock.timestamp),
            ])))
            for attachment in hook.attachments {
                out.append(Self.envelope("attachment", Self.attachment(attachment, at: [("testRunHookStartedId", .string(startedID))], clock: clock)))
            }
            clock.nanoseconds &+= hook.duration
            out.append(Self.envelope("testRunHookFinished", .object([
                ("testRunHookStartedId", .string(startedID)), ("result", Self.result(.hook(hook))), ("timestamp", clock.timestamp),
            ])))
        }
        for hook in runHooks.before { runHook(hook) }

        for result in results {
            guard let pickle = pickles[result.story.id] else { continue }
            // The test case: the last attempt's test steps.
            let caseID = ids.next()
            var stepIDs: [String] = []
            var testSteps: [JSONValue] = []
            var stepIndex = 0
            for testStep in result.testSteps {
                let id = ids.next()
                stepIDs.append(id)
                switch testStep {
                case .hook(let hook):
                    testSteps.append(.object([("id", .string(id)), ("hookId", .string(hooks[HookKey(kind: hook.kind, location: hook.location)] ?? ""))]))
                case .step(let step):
                    let pickleStepID = stepIndex < pickle.stepIDs.count ? pickle.stepIDs[stepIndex] : ""
                    stepIndex += 1
                    let matches = ([step.match].compactMap { $0 } + step.alsoMatched)
                    testSteps.append(.object([
                        ("id", .string(id)), ("pickleStepId", .string(pickleStepID)),
                        ("stepDefinitionIds", .array(matches.compactMap { definitions[$0.key] }.map(JSONValue.string))),
                        ("stepMatchArgumentsLists", .array(matches.map { Self.matchArguments($0, definition: registered[$0.key], text: step.step.text) })),
                    ]))
                }
            }
            out.append(Self.envelope("testCase", .object([
                ("id", .string(caseID)), ("pickleId", .string(pickle.id)),
                ("testSteps", .array(testSteps)), ("testRunStartedId", .string(runID)),
            ])))
            for (index, step) in result.steps.enumerated() where step.status == .undefined && index < pickle.stepIDs.count {
                out.append(Self.envelope("suggestion", .object([
                    ("id", .string(ids.next())), ("pickleStepId", .string(pickle.stepIDs[index])),
                    ("snippets", .array([.object([("language", .string("swift")), ("code", .string(step.snippet ?? Snippet(for: step.step).code()))])])),
                ])))
            }
            let attempts = result.allAttempts
            for (number, attempt) in attempts.enumerated() {
                let startedID = ids.next()
                let caseStart = clock.nanoseconds
                out.append(Self.envelope("testCaseStarted", .object([
                    ("attempt", .int(Int64(number))), ("id", .string(startedID)),
                    ("testCaseId", .string(caseID)), ("timestamp", clock.timestamp),
                ])))
                for (index, testStep) in attempt.testSteps.enumerated() {
                    // An earlier attempt's test steps are the test case's
                    // when they have the same shape; else they are matched in order.
                    guard let stepID = Self.testStepID(testStep, index: index, attempt: attempt.testSteps, last: result.testSteps, ids: stepIDs) else { continue }
                    let reference: [(String, JSONValue)] = [("testCaseStartedId", .string(startedID)), ("testStepId", .string(stepID))]
                    out.append(Self.envelope("testStepStarted", .object(reference + [("timestamp", clock.timestamp)])))
                    for attachment in testStep.attachments {
                        out.append(Self.envelope("attachment", Self.attachment(attachment, at: reference, clock: clock)))
                    }
                    clock.nanoseconds &+= testStep.duration
                    out.append(Self.envelope("testStepFinished", .object(reference + [
                        ("testStepResult", Self.result(testStep)), ("timestamp", clock.timestamp),
                    ])))
                }
                clock.nanoseconds = max(clock.nanoseconds, caseStart &+ attempt.duration)
                out.append(Self.envelope("testCaseFinished", .object([
                    ("testCaseStartedId", .string(startedID)), ("timestamp", clock.timestamp),
                    ("willBeRetried", .bool(number < attempts.count - 1)),
                ])))
            }
        }
        for hook in runHooks.after { runHook(hook) }
        clock.nanoseconds = max(clock.nanoseconds, summary.duration)
        out.append(Self.envelope("testRunFinished", .object([
            ("success", .bool(!summary.hasFailures(strict: isStrict))), ("timestamp", clock.timestamp),
            ("testRunStartedId", .string(runID)),
        ])))
        return out
    }

    /// A hook as a `hook` message knows it.
    struct HookKey: Hashable {
        var kind: String
        var location: SourceLocation
    }

    /// The id of the test case's step an attempt's test step ran as.
    private static func testStepID(_ step: TestStepResult, index: Int, attempt: [TestStepResult], last: [TestStepResult], ids: [String]) -> String? {
        func key(_ step: TestStepResult) -> String {
            switch step {
            case .hook(let hook): "hook \(hook.kind) \(hook.location)"
            case .step(let step): "step \(step.step.location) \(step.step.text)"
            }
        }
        if attempt.count == last.count, index < ids.count { return ids[index] }
        let wanted = key(step)
        let occurrence = attempt[..<index].filter { key($0) == wanted }.count
        let matching = last.indices.filter { key(last[$0]) == wanted }
        return occurrence < matching.count ? ids[matching[occurrence]] : nil
    }

    private static func hookType(_ kind: String) -> String {
        switch kind {
        case "before run": "BEFORE_TEST_RUN"
        case "after run": "AFTER_TEST_RUN"
        case "before story": "BEFORE_TEST_CASE"
        case "after story": "AFTER_TEST_CASE"
        case "before step": "BEFORE_TEST_STEP"
        default: "AFTER_TEST_STEP"
        }
    }

    private static func reference(_ location: SourceLocation) -> JSONValue {
        .object([
            ("uri", .string(location.displayPath)),
            ("location", .object([("line", .int(Int64(location.line)))])),
        ])
    }

    /// The captured groups with where each starts in the step text: the
    /// definition's group tree when it is known (with each Cucumber
    /// Expression parameter's type), else the captured texts found in order.
    private static func matchArguments(_ match: MatchInfo, definition: StepDefinition?, text: String) -> JSONValue {
        if let definition, let arguments = groupArguments(definition, text: text) {
            return .object([("stepMatchArguments", .array(arguments))])
        }
        return matchArguments(match, text: text)
    }

    private static func groupArguments(_ definition: StepDefinition, text: String) -> [JSONValue]? {
        switch definition.matcher {
        case .expression(let expression, _):
            guard let root = expression.groups(in: text), root.children.count == expression.parameterTypes.count else { return nil }
            return zip(root.children, expression.parameterTypes).map { group, type in
                .object([("group", groupJSON(group)), ("parameterTypeName", .string(type.name))])
            }
        case .regex(let pattern):
            // Regex patterns are searched case-insensitively, as the matcher does.
            guard let tree = try? TreeRegex(pattern.source, compiling: "(?i)" + pattern.source),
                let root = tree.match(text), root.children.count == match(pattern, text)
            else { return nil }
            return root.children.map { .object([("group", groupJSON($0))]) }
        }
    }

    /// The number of groups the matcher itself captures in the text, to
    /// check the tree agrees with it; -1 when it does not match the text.
    private static func match(_ pattern: Pattern, _ text: String) -> Int {
        pattern.captures(in: text)?.count ?? -1
    }

    /// A group as Messages write it: `start` and `value` when it took part,
    /// `children` when it has nested groups.
    private static func groupJSON(_ group: RegexGroup) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let start = group.start { members.append(("start", .int(Int64(start)))) }
        if let value = group.value { members.append(("value", .string(value))) }
        if !group.children.isEmpty { members.append(("children", .array(group.children.map(groupJSON)))) }
        return .object(members)
    }

    private static func matchArguments(_ match: MatchInfo, text: String) -> JSONValue {
        let arguments = CucumberJSONReporter.arguments(match.arguments, in: text).map { argument -> JSONValue in
            guard case .object(let members) = argument else { return argument }
            var group: [(String, JSONValue)] = []
            for (key, value) in members {
                if key == "val", case .string = value { group.append(("value", value)) }
                if key == "offset", case .int = value { group.append(("start", value)) }
            }
            return .object([("group", .object(group))])
        }
        return .object([("stepMatchArguments", .array(arguments))])
    }

    private static func attachment(_ attachment: Attachment, at reference: [(String, JSONValue)], clock: Clock) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("body", .string(attachment.isOverLimit ? attachment.limitNote ?? "" : attachment.body)),
            ("contentEncoding", .string(attachment.isOverLimit ? "IDENTITY" : attachment.encoding.rawValue)),
            ("mediaType", .string(attachment.isOverLimit ? "text/plain" : attachment.mediaType)),
        ]
        if let name = attachment.name { members.append(("fileName", .string(name))) }
        return .object(members + reference + [("timestamp", clock.timestamp)])
    }

    private static func envelope(_ name: String, _ message: JSONValue) -> JSONValue {
        .object([(name, message)])
    }

    private static func result(_ step: TestStepResult) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("duration", Clock.json(step.duration)),
            ("status", .string(step.status.rawValue.uppercased())),
        ]
        // An ambiguous step's definitions are its test step's
        // stepDefinitionIds; Cucumber gives it no message.
        if let error = step.error, step.status != .ambiguous {
            let place = error.location.map { "\nat \($0.displayFileAndLine)" } ?? ""
            members.append(("message", .string(error.message + place + "\n\(step.place.displayFileAndLine)")))
            members.append(("exception", .object([
                ("type", .string(step.hookResult != nil ? "HookError" : "StepError")), ("message", .string(error.message)),
            ])))
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
