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
        guard var features = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
            throw Diagnostic(at: nil, problem: "\(path) is not Cucumber JSON", help: "give files written by --json (an array of features)")
        }
        try checkShape(features, path: path)
        try checkStatuses(features, path: path)
        var run = Run()
        run.isStrict = features.contains { $0["storyrun_strict"] as? Bool == true }
        features.removeAll { feature in
            let uri = feature["uri"] as? String ?? path
            if let failed = feature["storyrun_run_failed"] as? [String: Any] {
                run.otherFailures += failed["failures"] as? Int ?? 0
                run.notRun += failed["not_run"] as? Int ?? 0
                return true
            }
            if let problems = feature["storyrun_rejected"] as? [[String: Any]] {
                run.rejectedFiles.append(RejectedFile(path: uri, problems: problems.map { problem in
                    Diagnostic(
                        at: uri.isEmpty ? nil : SourceLocation(file: uri, line: problem["line"] as? Int ?? 0, column: problem["column"] as? Int ?? 0),
                        problem: problem["message"] as? String ?? "rejected", help: problem["help"] as? String)
                }))
                return true
            }
            guard feature["storyrun_run_hooks"] as? Bool == true else { return false }
            for element in feature["elements"] as? [[String: Any]] ?? [] {
                let kind = element["storyrun_hook"] as? String
                for (key, fallback) in [("before", "before run"), ("after", "after run")] {
                    for json in element[key] as? [[String: Any]] ?? [] {
                        run.runHooks.append(hook(json, kind: kind ?? fallback, uri: uri))
                    }
                }
            }
            return true
        }
        var cache = StoryFileInfo.Cache()
        run.results = features.flatMap { feature in
            let uri = feature["uri"] as? String ?? path
            let group = feature["name"] as? String
            var results: [StoryResult] = []
            // A background element holds the Background's steps (and the
            // before hooks) of the scenario element after it.
            var background: [String: Any]?
            for element in feature["elements"] as? [[String: Any]] ?? [] {
                if (element["type"] as? String ?? "scenario") == "background" {
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

    private static func story(_ element: [String: Any], background: [String: Any]?, uri: String, group: String?, info: StoryFileInfo) -> StoryResult {
        let location = SourceLocation(file: uri, line: element["line"] as? Int ?? 0)
        let place = info.place(of: Story(name: "", location: location, steps: []))
        var previous = Step.Kind.unknown
        var testSteps: [TestStepResult] = []
        let elements = [background, element].compactMap { $0 }
        for json in elements.flatMap({ $0["before"] as? [[String: Any]] ?? [] }) {
            testSteps.append(.hook(hook(json, kind: "before story", uri: uri)))
        }
        var stepIndex = 0
        for json in elements.flatMap({ $0["steps"] as? [[String: Any]] ?? [] }) {
            for hookJSON in json["before"] as? [[String: Any]] ?? [] {
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
            for hookJSON in json["after"] as? [[String: Any]] ?? [] {
                testSteps.append(.hook(hook(hookJSON, kind: "after step", uri: uri)))
            }
            stepIndex += 1
        }
        for json in element["after"] as? [[String: Any]] ?? [] {
            testSteps.append(.hook(hook(json, kind: "after story", uri: uri)))
        }
        let steps = testSteps.compactMap(\.stepResult)
        let tags = (element["tags"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let name = place?.row != nil ? place!.pickle.name : element["name"] as? String ?? ""
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
        if let attempts = element["storyrun_attempts"] as? Int, attempts > 1 {
            // Cucumber JSON keeps the last attempt only: the earlier ones are
            // known by their number.
            result.earlierAttempts = (1..<attempts).map { _ in StoryAttempt(status: .failed, testSteps: [], duration: 0) }
        }
        return result
    }

    private static func hook(_ json: [String: Any], kind: String, uri: String) -> HookResult {
        let match = json["match"] as? [String: Any] ?? [:]
        let location = place(match["location"] as? String) ?? SourceLocation(file: uri, line: 0)
        let (status, duration, error) = outcome(json["result"] as? [String: Any] ?? [:])
        return HookResult(kind: kind, location: location, status: status, error: error, duration: duration, attachments: attachments(json))
    }

    private static func outcome(_ outcome: [String: Any]) -> (StepStatus, UInt64, StepError?) {
        let status: StepStatus =
            switch outcome["status"] as? String {
            case "passed": .passed
            case "failed": .failed
            case "undefined": .undefined
            case "pending": .pending
            case "ambiguous": .ambiguous
            default: .skipped
            }
        let duration = (outcome["duration"] as? NSNumber)?.uint64Value ?? 0
        return (status, duration, (outcome["error_message"] as? String).map(error))
    }

    /// `output` lines as logs, `embeddings` as attachments (base64).
    private static func attachments(_ json: [String: Any]) -> [Attachment] {
        var result = (json["output"] as? [String] ?? []).map {
            Attachment(body: $0, encoding: .identity, mediaType: Attachment.logMediaType)
        }
        for embedding in json["embeddings"] as? [[String: Any]] ?? [] {
            let mediaType = embedding["mime_type"] as? String ?? "application/octet-stream"
            let data = embedding["data"] as? String ?? ""
            let name = embedding["name"] as? String
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

    private static func step(_ json: [String: Any], uri: String, previous: Step.Kind) -> StepResult {
        let keyword = (json["keyword"] as? String ?? "").trimmingCharacters(in: .whitespaces)
        let location = SourceLocation(file: uri, line: json["line"] as? Int ?? 0)
        var argument: StepAttachment?
        if let rows = json["rows"] as? [[String: Any]] {
            argument = .dataTable(DataTable(rows: rows.map { $0["cells"] as? [String] ?? [] }, location: SourceLocation(file: uri, line: location.line + 1)))
        } else if let doc = json["doc_string"] as? [String: Any] {
            argument = .docString(DocString(
                content: doc["value"] as? String ?? "", mediaType: doc["content_type"] as? String,
                location: SourceLocation(file: uri, line: doc["line"] as? Int ?? location.line + 1)))
        }
        let step = Step(keyword: keyword, kind: kind(keyword, previous: previous), text: json["name"] as? String ?? "", location: location, attachment: argument)
        let (status, duration, error) = outcome(json["result"] as? [String: Any] ?? [:])
        var match: MatchInfo?
        if let info = json["match"] as? [String: Any], let pattern = info["pattern"] as? String {
            let arguments = (info["arguments"] as? [[String: Any]] ?? []).map { $0["val"] as? String }
            match = MatchInfo(pattern: pattern, location: place(info["location"] as? String) ?? location, arguments: arguments)
            // Placed where the report says, checked against the step's text.
            match?.spans = GroupSpans(
                placing: arguments, starts: (info["arguments"] as? [[String: Any]] ?? []).map { $0["offset"] as? Int }, in: step.text,
                countingUTF16: false)
        }
        var result = StepResult(step: step, status: status, duration: duration, error: error, match: match, alsoMatched: [])
        result.attachments = attachments(json)
        result.snippet = json["storyrun_snippet"] as? String
        return result
    }

    /// Rejects a document whose parts are not what Cucumber JSON has there:
    /// read as empty, `"elements": "nope"` made a run of nothing (exit 0),
    /// and a negative count of stories not run turned a failed run green.
    private static func checkShape(_ features: [[String: Any]], path: String) throws(Diagnostic) {
        func problem(_ index: Int, _ what: String, help: String) -> Diagnostic {
            Diagnostic(at: nil, problem: "\(path): feature \(index + 1)\(what)", help: help)
        }
        func isList(_ value: Any?) -> Bool { value == nil || value is [[String: Any]] }
        let listHelp = "merge reports written by --json: elements, steps, before and after are lists of objects"
        for (index, feature) in features.enumerated() {
            for key in ["uri", "name"] where feature[key] != nil && !(feature[key] is String) {
                throw problem(index, ": \"\(key)\" is not a string", help: "merge reports written by --json")
            }
            guard isList(feature["elements"]) else { throw problem(index, ": \"elements\" is not a list of objects", help: listHelp) }
            for (number, element) in (feature["elements"] as? [[String: Any]] ?? []).enumerated() {
                for key in ["steps", "before", "after"] where !isList(element[key]) {
                    throw problem(index, ", element \(number + 1): \"\(key)\" is not a list of objects", help: listHelp)
                }
                for step in element["steps"] as? [[String: Any]] ?? [] {
                    for key in ["before", "after"] where !isList(step[key]) {
                        throw problem(index, ", element \(number + 1): a step's \"\(key)\" is not a list of objects", help: listHelp)
                    }
                }
            }
            if let failed = feature["storyrun_run_failed"] {
                guard let failed = failed as? [String: Any] else {
                    throw problem(index, ": \"storyrun_run_failed\" is not an object", help: "merge reports written by --json")
                }
                for key in ["failures", "not_run"] {
                    guard let count = failed[key] else { continue }
                    guard let number = count as? Int, number >= 0 else {
                        throw problem(index, ": \"storyrun_run_failed\" has \"\(key)\": \(count), not a count", help: "a count is a whole number, 0 or more")
                    }
                }
            }
            if let rejected = feature["storyrun_rejected"], !(rejected is [[String: Any]]) {
                throw problem(index, ": \"storyrun_rejected\" is not a list of objects", help: listHelp)
            }
        }
    }

    /// Rejects a step or hook whose status merge does not know: counted as
    /// anything else, it would hide a failure in the merged report.
    private static func checkStatuses(_ features: [[String: Any]], path: String) throws(Diagnostic) {
        let known: Set<String> = ["passed", "failed", "skipped", "pending", "undefined", "ambiguous"]
        for feature in features {
            let uri = feature["uri"] as? String ?? path
            for element in feature["elements"] as? [[String: Any]] ?? [] {
                let steps = element["steps"] as? [[String: Any]] ?? []
                let hooks = ["before", "after"].flatMap { element[$0] as? [[String: Any]] ?? [] }
                    + steps.flatMap { step in ["before", "after"].flatMap { step[$0] as? [[String: Any]] ?? [] } }
                for json in steps + hooks {
                    let status = (json["result"] as? [String: Any])?["status"] as? String
                    guard let status, known.contains(status) else {
                        let name = json["name"] as? String ?? "a hook"
                        throw Diagnostic(
                            at: nil,
                            problem: "\(path): step \"\(name)\" (\(uri):\(json["line"] as? Int ?? 0)) has \(status.map { "the unknown status \"\($0)\"" } ?? "no result status")",
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
