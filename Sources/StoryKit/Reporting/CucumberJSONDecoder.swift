import Foundation

/// Reads Cucumber JSON (as ``CucumberJSONReporter`` or Cucumber writes it)
/// back into story results, so reports of several runs can be merged.
enum CucumberJSONDecoder {
    /// Decodes the stories of one Cucumber JSON document.
    /// - Parameters:
    ///   - data: The document.
    ///   - path: Where it was read from, for diagnostics.
    /// - Throws: A ``Diagnostic`` when the data is not Cucumber JSON.
    static func decode(_ data: Data, path: String) throws(Diagnostic) -> [StoryResult] {
        guard let features = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
            throw Diagnostic(at: nil, problem: "\(path) is not Cucumber JSON", help: "give files written by --json (an array of features)")
        }
        var results: [StoryResult] = []
        for feature in features {
            let uri = feature["uri"] as? String ?? path
            let group = feature["name"] as? String
            for element in feature["elements"] as? [[String: Any]] ?? []
            where (element["type"] as? String ?? "scenario") != "background" {
                results.append(try story(element, uri: uri, group: group, path: path))
            }
        }
        return results
    }

    private static func story(_ element: [String: Any], uri: String, group: String?, path: String) throws(Diagnostic) -> StoryResult {
        let location = SourceLocation(file: uri, line: element["line"] as? Int ?? 0)
        var previous = Step.Kind.unknown
        var steps: [StepResult] = []
        for json in element["steps"] as? [[String: Any]] ?? [] {
            let result = try step(json, uri: uri, previous: previous, path: path)
            previous = result.step.kind
            steps.append(result)
        }
        let tags = (element["tags"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let story = Story(
            name: element["name"] as? String ?? "", tags: tags, location: location,
            steps: steps.map(\.step), groupName: group)
        let status: StoryStatus =
            if steps.contains(where: { $0.status == .failed || $0.status == .ambiguous }) { .failed }
            else if steps.contains(where: { $0.status == .undefined }) { .undefined }
            else if !steps.isEmpty && steps.allSatisfy({ $0.status == .skipped }) { .skipped }
            else { .passed }
        return StoryResult(story: story, status: status, steps: steps, duration: steps.reduce(0) { $0 &+ $1.duration })
    }

    private static func step(_ json: [String: Any], uri: String, previous: Step.Kind, path: String) throws(Diagnostic) -> StepResult {
        let keyword = (json["keyword"] as? String ?? "").trimmingCharacters(in: .whitespaces)
        let location = SourceLocation(file: uri, line: json["line"] as? Int ?? 0)
        let step = Step(keyword: keyword, kind: kind(keyword, previous: previous), text: json["name"] as? String ?? "", location: location)
        let outcome = json["result"] as? [String: Any] ?? [:]
        let status: StepStatus =
            switch outcome["status"] as? String {
            case "passed": .passed
            case "failed": .failed
            case "undefined", "pending": .undefined
            case "ambiguous": .ambiguous
            case "skipped": .skipped
            case let other:
                // Counted as anything else, a step the run did not know
                // would hide a failure in the merged report.
                throw Diagnostic(
                    at: nil,
                    problem: "\(path): step \"\(step.text)\" (\(uri):\(location.line)) has \(other.map { "the unknown status \"\($0)\"" } ?? "no result status")",
                    help: "merge reports written by --json; a step's status is passed, failed, skipped, pending, undefined or ambiguous")
            }
        let duration = (outcome["duration"] as? NSNumber)?.uint64Value ?? 0
        var match: MatchInfo?
        if let info = json["match"] as? [String: Any], let pattern = info["pattern"] as? String {
            let arguments = (info["arguments"] as? [[String: Any]] ?? []).map { $0["val"] as? String }
            match = MatchInfo(pattern: pattern, location: place(info["location"] as? String) ?? location, arguments: arguments)
        }
        return StepResult(
            step: step, status: status, duration: duration,
            error: (outcome["error_message"] as? String).map(error), match: match, alsoMatched: [])
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
