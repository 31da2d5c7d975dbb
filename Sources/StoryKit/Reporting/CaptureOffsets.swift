/// Where each text a step's definition captured starts in the step's text,
/// found from the definition (its groups, as the matcher found them):
/// Cucumber JSON's `offset`s, counted in characters (Unicode scalars).
///
/// Searching the step text for each captured text, in order, found the
/// first place it occurs: an "a" captured at the end of "a step with a"
/// was put at 0, and an empty capture nowhere. The search stays for a match
/// whose definition this run does not have (`merge`) and for a group this
/// cannot place again.
final class CaptureOffsets {
    /// The run's definitions by id, each with its fast matcher's finder.
    private let byID: [(definition: StepDefinition, captures: MessagesReporter.SimpleCaptureFinder?)?]
    private let trees = MessagesReporter.TreeRegexCache()

    init(registry: StepRegistry?) {
        var byID: [(definition: StepDefinition, captures: MessagesReporter.SimpleCaptureFinder?)?] = []
        for definition in registry?.definitions ?? [] where definition.id >= 0 {
            if byID.count <= definition.id { byID += Array(repeating: nil, count: definition.id + 1 - byID.count) }
            byID[definition.id] = (definition, MessagesReporter.SimpleCaptureFinder(definition))
        }
        self.byID = byID
    }

    /// The start of each of the match's captured texts in `text`, in
    /// Unicode scalars (nil for a group that took no part); nil when the
    /// match's definition is not this run's or its groups are not found in
    /// `text` as captured.
    func starts(of match: MatchInfo, in text: String) -> [Int?]? {
        guard let id = match.definitionID, id >= 0, id < byID.count, let (definition, captures) = byID[id],
            definition.pattern == match.pattern, definition.location == match.location
        else { return nil }
        let count = match.arguments.count
        switch definition.matcher {
        case .regex(let pattern):
            // ASCII text: byte offsets are character offsets.
            if let ranges = captures?.ranges(in: text, captured: match.arguments), ranges.count == count {
                return ranges.map { $0.lowerBound }
            }
            guard let tree = trees.tree(pattern.source), let root = tree.match(text), root.children.count == count else { return nil }
            return placed(root.children, as: match.arguments, in: text)
        case .expression(let expression, _):
            guard let root = expression.groups(in: text), root.children.count == count else { return nil }
            return placed(root.children, as: match.arguments, in: text)
        }
    }

    /// The groups' starts (UTF-16 offsets) in Unicode scalars, when each
    /// group holds the text captured for it.
    private func placed(_ groups: [RegexGroup], as captured: [String?], in text: String) -> [Int?]? {
        var starts: [Int?] = []
        starts.reserveCapacity(groups.count)
        for (group, value) in zip(groups, captured) {
            guard group.value == value else { return nil }
            guard let start = group.start else {
                starts.append(nil)
                continue
            }
            let index = String.Index(utf16Offset: start, in: text)
            starts.append(text.unicodeScalars.distance(from: text.startIndex, to: index))
        }
        return starts
    }
}
