import Foundation

/// Reads Cucumber JSON (as ``CucumberJSONReporter`` or Cucumber writes it)
/// back into story results, so reports of several runs can be merged.
enum CucumberJSONDecoder {
    /// What a Cucumber JSON document says of its run.
    struct Run {
        /// The stories.
        var results: [StoryResult] = []
        /// The before-run and after-run hooks that failed.
        var runHooks: [HookResult] = []
        /// The story files the run rejected.
        var rejectedFiles: [RejectedFile] = []
        /// Whether the run was `--strict`.
        var isStrict = false
        /// Failures of the run outside its stories that are not failed run
        /// hooks, and the stories it did not run.
        var otherFailures = 0
        var notRun = 0
    }

    /// Decodes the stories of one Cucumber JSON document.
    /// - Parameters:
    ///   - data: The document.
    ///   - path: Where it was read from, for diagnostics.
    /// - Throws: A ``Diagnostic`` when the data is not Cucumber JSON.
    static func decode(_ data: Data, path: String) throws(Diagnostic) -> [StoryResult] {
        try decodeRun(data, path: path).results
    }

    /// Decodes one Cucumber JSON document: its stories, and what failed
    /// its run outside them, as earlier versions of storyrun wrote them in
    /// features of their own (`storyrun_run_failed`, `storyrun_rejected`,
    /// `storyrun_run_hooks`): read still, so their reports merge as failed.
    /// - Throws: A ``Diagnostic`` when the data is not Cucumber JSON.
    static func decodeRun(_ data: Data, path: String) throws(Diagnostic) -> Run {
        let document: JSONValue
        do {
            document = try JSONValue(parsingUTF8: [UInt8](data))
        } catch {
            throw Diagnostic(at: nil, problem: "\(path) is not Cucumber JSON (\(error))", help: "give files written by --json (an array of features)")
        }
        guard var features = document.objectList else {
            throw Diagnostic(at: nil, problem: "\(path) is not Cucumber JSON", help: "give files written by --json (an array of features)")
        }
        try checkShape(features, path: path)
        try checkStatuses(features, path: path)
        var run = Run()
        run.isStrict = features.contains { $0["storyrun_strict"]?.boolValue == true }
        features.removeAll { feature in
            let uri = feature.string("uri") ?? path
            if let failed = feature["storyrun_run_failed"], failed.objectMembers != nil {
                run.otherFailures += failed.int("failures") ?? 0
                run.notRun += failed.int("not_run") ?? 0
                return true
            }
            if let problems = feature["storyrun_rejected"]?.objectList {
                run.rejectedFiles.append(RejectedFile(path: uri, problems: problems.map { problem in
                    Diagnostic(
                        at: uri.isEmpty ? nil : SourceLocation(file: uri, line: problem.int("line") ?? 0, column: problem.int("column") ?? 0),
                        problem: problem.string("message") ?? "rejected", help: problem.string("help"))
                }))
                return true
            }
            guard feature["storyrun_run_hooks"]?.boolValue == true else { return false }
            for element in feature.objects("elements") {
                let kind = element.string("storyrun_hook")
                for (key, fallback) in [("before", "before run"), ("after", "after run")] {
                    for json in element.objects(key) {
                        run.runHooks.append(hook(json, kind: kind ?? fallback, uri: uri))
                    }
                }
            }
            return true
        }
        var cache = StoryFileInfo.Cache()
        run.results = features.flatMap { feature in
            let uri = feature.string("uri") ?? path
            let group = feature.string("name")
            var results: [StoryResult] = []
            // A background element holds the Background's steps (and the
            // before hooks) of the scenario element after it.
            var background: JSONValue?
            for element in feature.objects("elements") {
                if (element.string("type") ?? "scenario") == "background" {
                    background = element
                    continue
                }
                results.append(story(element, background: background, uri: uri, group: group, info: cache.info(uri)))
                background = nil
            }
            return results
        }
        return run
    }

    private static func story(_ element: JSONValue, background: JSONValue?, uri: String, group: String?, info: StoryFileInfo) -> StoryResult {
        let location = SourceLocation(file: uri, line: element.int("line") ?? 0)
        let place = info.place(of: Story(name: "", location: location, steps: []))
        var previous = Step.Kind.unknown
        var testSteps: [TestStepResult] = []
        let elements = [background, element].compactMap { $0 }
        for json in elements.flatMap({ $0.objects("before") }) {
            testSteps.append(.hook(hook(json, kind: "before story", uri: uri)))
        }
        var stepIndex = 0
        for json in elements.flatMap({ $0.objects("steps") }) {
            for hookJSON in json.objects("before") {
                testSteps.append(.hook(hook(hookJSON, kind: "before step", uri: uri)))
            }
            var result = step(json, uri: uri, previous: previous)
            // An outline's steps are written on its row's line: the step's own
            // line comes from the file when it still has the story.
            if let pickle = place?.pickle, stepIndex < pickle.steps.count {
                result.step.location.line = pickle.steps[stepIndex].source.location.line
            }
            previous = result.step.kind
            testSteps.append(.step(result))
            for hookJSON in json.objects("after") {
                testSteps.append(.hook(hook(hookJSON, kind: "after step", uri: uri)))
            }
            stepIndex += 1
        }
        for json in element.objects("after") {
            testSteps.append(.hook(hook(json, kind: "after story", uri: uri)))
        }
        let steps = testSteps.compactMap(\.stepResult)
        let tags = element.objects("tags").compactMap { $0.string("name") }
        let name = place?.row != nil ? place!.pickle.name : element.string("name") ?? ""
        let story = Story(
            name: name, tags: tags, location: location,
            steps: steps.map(\.step), groupName: group)
        let status: StoryStatus =
            if testSteps.contains(where: \.isFailure) { .failed }
            else if steps.contains(where: { $0.status == .undefined }) { .undefined }
            else if testSteps.contains(where: { $0.status == .pending }) { .pending }
            // Only a dry run or skip(_:) skips a step of a story that did
            // not fail, and was neither undefined nor pending.
            else if testSteps.contains(where: { $0.status == .skipped }) { .skipped }
            else { .passed }
        var result = StoryResult(story: story, status: status, testSteps: testSteps, duration: testSteps.reduce(0) { $0 &+ $1.duration })
        if let attempts = element.int("storyrun_attempts"), attempts > 1 {
            // Cucumber JSON keeps the last attempt only: the earlier ones are
            // known by their number.
            result.earlierAttempts = (1..<attempts).map { _ in StoryAttempt(status: .failed, testSteps: [], duration: 0) }
        }
        return result
    }

    private static func hook(_ json: JSONValue, kind: String, uri: String) -> HookResult {
        let location = place(json["match"]?.string("location")) ?? SourceLocation(file: uri, line: 0)
        let (status, duration, error) = outcome(json["result"] ?? [:])
        return HookResult(kind: kind, location: location, status: status, error: error, duration: duration, attachments: attachments(json))
    }

    private static func outcome(_ outcome: JSONValue) -> (StepStatus, UInt64, StepError?) {
        let status: StepStatus =
            switch outcome.string("status") {
            case "passed": .passed
            case "failed": .failed
            case "undefined": .undefined
            case "pending": .pending
            case "ambiguous": .ambiguous
            default: .skipped
            }
        let duration = outcome["duration"]?.doubleValue.map { $0 >= 0 && $0 < 1.8e19 ? UInt64($0) : 0 } ?? 0
        return (status, duration, outcome.string("error_message").map(error))
    }

    /// `output` lines as logs, `embeddings` as attachments (base64).
    private static func attachments(_ json: JSONValue) -> [Attachment] {
        var result = json.strings("output").map {
            Attachment(body: $0, encoding: .identity, mediaType: Attachment.logMediaType)
        }
        for embedding in json.objects("embeddings") {
            let mediaType = embedding.string("mime_type") ?? "application/octet-stream"
            let data = embedding.string("data") ?? ""
            let name = embedding.string("name")
            if mediaType.hasPrefix("text/") || mediaType == "application/json", let bytes = Data(base64Encoded: data),
                let text = String(data: bytes, encoding: .utf8)
            {
                result.append(Attachment(body: text, encoding: .identity, mediaType: mediaType, name: name))
            } else {
                result.append(Attachment(body: data, encoding: .base64, mediaType: mediaType, name: name))
            }
        }
        return result
    }

    private static func step(_ json: JSONValue, uri: String, previous: Step.Kind) -> StepResult {
        let keyword = (json.string("keyword") ?? "").trimmingCharacters(in: .whitespaces)
        let location = SourceLocation(file: uri, line: json.int("line") ?? 0)
        var argument: StepAttachment?
        if let rows = json["rows"]?.objectList {
            argument = .dataTable(DataTable(rows: rows.map { $0.strings("cells") }, location: SourceLocation(file: uri, line: location.line + 1)))
        } else if let doc = json["doc_string"], doc.objectMembers != nil {
            argument = .docString(DocString(
                content: doc.string("value") ?? "", mediaType: doc.string("content_type"),
                location: SourceLocation(file: uri, line: doc.int("line") ?? location.line + 1)))
        }
        let step = Step(keyword: keyword, kind: kind(keyword, previous: previous), text: json.string("name") ?? "", location: location, attachment: argument)
        let (status, duration, error) = outcome(json["result"] ?? [:])
        var match: MatchInfo?
        if let info = json["match"], let pattern = info.string("pattern") {
            let arguments = info.objects("arguments").map { $0.string("val") }
            match = MatchInfo(pattern: pattern, location: place(info.string("location")) ?? location, arguments: arguments)
            // Placed where the report says, checked against the step's text.
            match?.spans = GroupSpans(
                placing: arguments, starts: info.objects("arguments").map { $0.int("offset") }, in: step.text,
                countingUTF16: false)
        }
        var result = StepResult(step: step, status: status, duration: duration, error: error, match: match, alsoMatched: [])
        result.attachments = attachments(json)
        result.snippet = json.string("storyrun_snippet")
        return result
    }

    /// Rejects a document whose parts are not what Cucumber JSON has there:
    /// read as empty, `"elements": "nope"` made a run of nothing (exit 0),
    /// and a negative count of stories not run turned a failed run green.
    private static func checkShape(_ features: [JSONValue], path: String) throws(Diagnostic) {
        func problem(_ index: Int, _ what: String, help: String) -> Diagnostic {
            Diagnostic(at: nil, problem: "\(path): feature \(index + 1)\(what)", help: help)
        }
        func isList(_ value: JSONValue?) -> Bool { value == nil || value?.objectList != nil }
        let listHelp = "merge reports written by --json: elements, steps, before and after are lists of objects"
        for (index, feature) in features.enumerated() {
            for key in ["uri", "name"] where feature[key] != nil && feature[key]?.stringValue == nil {
                throw problem(index, ": \"\(key)\" is not a string", help: "merge reports written by --json")
            }
            guard isList(feature["elements"]) else { throw problem(index, ": \"elements\" is not a list of objects", help: listHelp) }
            for (number, element) in feature.objects("elements").enumerated() {
                for key in ["steps", "before", "after"] where !isList(element[key]) {
                    throw problem(index, ", element \(number + 1): \"\(key)\" is not a list of objects", help: listHelp)
                }
                for step in element.objects("steps") {
                    for key in ["before", "after"] where !isList(step[key]) {
                        throw problem(index, ", element \(number + 1): a step's \"\(key)\" is not a list of objects", help: listHelp)
                    }
                }
            }
            if let failed = feature["storyrun_run_failed"] {
                guard failed.objectMembers != nil else {
                    throw problem(index, ": \"storyrun_run_failed\" is not an object", help: "merge reports written by --json")
                }
                for key in ["failures", "not_run"] {
                    guard let count = failed[key] else { continue }
                    guard let number = count.intValue, number >= 0 else {
                        throw problem(index, ": \"storyrun_run_failed\" has \"\(key)\": \(count.text), not a count", help: "a count is a whole number, 0 or more")
                    }
                }
            }
            if let rejected = feature["storyrun_rejected"], rejected.objectList == nil {
                throw problem(index, ": \"storyrun_rejected\" is not a list of objects", help: listHelp)
            }
        }
    }

    /// Rejects a step or hook whose status merge does not know: counted as
    /// anything else, it would hide a failure in the merged report.
    private static func checkStatuses(_ features: [JSONValue], path: String) throws(Diagnostic) {
        let known: Set<String> = ["passed", "failed", "skipped", "pending", "undefined", "ambiguous"]
        for feature in features {
            let uri = feature.string("uri") ?? path
            for element in feature.objects("elements") {
                let steps = element.objects("steps")
                let hooks = ["before", "after"].flatMap { element.objects($0) }
                    + steps.flatMap { step in ["before", "after"].flatMap { step.objects($0) } }
                for json in steps + hooks {
                    let status = json["result"]?.string("status")
                    guard let status, known.contains(status) else {
                        let name = json.string("name") ?? "a hook"
                        throw Diagnostic(
                            at: nil,
                            problem: "\(path): step \"\(name)\" (\(uri):\(json.int("line") ?? 0)) has \(status.map { "the unknown status \"\($0)\"" } ?? "no result status")",
                            help: "merge reports written by --json; a step's status is passed, failed, skipped, pending, undefined or ambiguous")
                    }
                }
            }
        }
    }

    /// Splits the text CucumberJSONReporter writes (message, the Swift place,
    /// the story place) back into an error.
    static func error(_ text: String) -> StepError {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.count > 1, place(lines.last) != nil { lines.removeLast() }
        var location: SourceLocation?
        if lines.count > 1, let swiftPlace = place(lines.last) {
            location = swiftPlace
            lines.removeLast()
        }
        return StepError(message: lines.joined(separator: "\n"), location: location)
    }

    /// Reads `path:line`, or nil when the text is not a place.
    static func place(_ text: String?) -> SourceLocation? {
        guard let text, let colon = text.lastIndex(of: ":"), !text.contains(" "),
              let line = Int(text[text.index(after: colon)...]), colon > text.startIndex
        else { return nil }
        return SourceLocation(file: String(text[..<colon]), line: line)
    }

    private static func kind(_ keyword: String, previous: Step.Kind) -> Step.Kind {
        switch keyword.lowercased() {
        case "given": .context
        case "when": .action
        case "then": .outcome
        case "as": .role
        case "and", "but": previous
        default: .unknown
        }
    }
}

extension MatchInfo {
    /// Creates a match from what a report recorded.
    init(pattern: String, location: SourceLocation, arguments: [String?]) {
        self.pattern = pattern
        self.location = location
        self.arguments = arguments
    }
}

/// What Cucumber JSON's reader asks of a value: a member as a string, a
/// whole number or a list, nil (or empty) when it is of another kind, as a
/// report of another version may have it.
private extension JSONValue {
    /// The elements, if this is a list of objects only.
    var objectList: [JSONValue]? {
        guard let values = arrayValue, values.allSatisfy({ $0.objectMembers != nil }) else { return nil }
        return values
    }

    /// A member that is a list of objects; empty otherwise.
    func objects(_ key: String) -> [JSONValue] { self[key]?.objectList ?? [] }

    /// A member that is a list of strings; empty otherwise.
    func strings(_ key: String) -> [String] {
        guard let values = self[key]?.arrayValue else { return [] }
        let strings = values.compactMap(\.stringValue)
        return strings.count == values.count ? strings : []
    }

    /// A member that is a string.
    func string(_ key: String) -> String? { self[key]?.stringValue }

    /// A member that is a whole number that fits an `Int`.
    func int(_ key: String) -> Int? { self[key]?.intValue.map { Int($0) } }
}
