import Foundation

extension MessagesReporter {
    /// The group trees of regex patterns, compiled once per pattern.
    final class TreeRegexCache {
        private var trees: [String: TreeRegex?] = [:]

        /// The tree of a pattern, searched case-insensitively as the matcher does.
        func tree(_ source: String) -> TreeRegex? {
            if let known = trees[source] { return known }
            let tree = try? TreeRegex(source, compiling: "(?i)" + source)
            trees[source] = tree
            return tree
        }
    }

    /// The captured groups with where each starts in the step text: the
    /// definition's group tree when it is known (with each Cucumber
    /// Expression parameter's type), else the captured texts found in order.
    static func matchArguments(_ match: MatchInfo, definition: StepDefinition?, text: String, trees: TreeRegexCache) -> JSONValue {
        if let definition, let arguments = groupArguments(definition, match: match, text: text, trees: trees) {
            return .object([("stepMatchArguments", .array(arguments))])
        }
        return matchArguments(match, text: text)
    }

    /// Appends ``matchArguments(_:definition:text:trees:)`` as JSON text;
    /// the common case (a regex the fast matcher took apart) straight as
    /// bytes. `captures`: the definition's fast matcher, when known.
    static func writeMatchArguments(
        _ match: MatchInfo, definition: StepDefinition?, captures: SimpleCaptureFinder? = nil, text: String, trees: TreeRegexCache,
        into out: inout [UInt8]
    ) {
        let simpleRanges = captures.map { $0.ranges(in: text) } ?? definition?.simpleCaptureRanges(in: text)
        if let ranges = simpleRanges, ranges.count == match.arguments.count {
            var text = text
            text.withUTF8 { bytes in
                out.literal(#"{"stepMatchArguments":["#)
                for (index, range) in ranges.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    out.literal(#"{"group":{"start":"#)
                    JSONValue.writeInteger(Int64(range.lowerBound), into: &out)
                    // The captured text, escaped from the step's own bytes (ASCII).
                    out.literal(#","value":""#)
                    JSONValue.writeEscaped(UnsafeBufferPointer(rebasing: bytes[range]), into: &out)
                    out.literal(#""}}"#)
                }
                out.literal("]}")
            }
            return
        }
        matchArguments(match, definition: definition, text: text, trees: trees).write(into: &out)
    }

    private static func groupArguments(_ definition: StepDefinition, match: MatchInfo, text: String, trees: TreeRegexCache) -> [JSONValue]? {
        switch definition.matcher {
        case .expression(let expression, _):
            guard let root = expression.groups(in: text), root.children.count == expression.parameterTypes.count else { return nil }
            return zip(root.children, expression.parameterTypes).map { group, type in
                .object([("group", groupJSON(group)), ("parameterTypeName", .string(type.name))])
            }
        case .regex(let pattern):
            if let ranges = pattern.simpleCaptureRanges(in: text), ranges.count == match.arguments.count {
                // The fast matcher's groups: never nested, always taking part.
                let bytes = Array(text.utf8)
                return ranges.map { range in
                    .object([("group", .object([
                        ("start", .int(Int64(range.lowerBound))), ("value", .string(String(decoding: bytes[range], as: UTF8.self))),
                    ]))])
                }
            }
            // Regex patterns are searched case-insensitively, as the matcher does.
            guard let tree = trees.tree(pattern.source),
                // The tree must agree with the groups the matcher captured.
                let root = tree.match(text), root.children.count == match.arguments.count
            else { return nil }
            return root.children.map { .object([("group", groupJSON($0))]) }
        }
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
}

extension StepDefinition {
    /// A regex's ``Pattern/simpleCaptureRanges(in:)``; nil for a Cucumber Expression.
    func simpleCaptureRanges(in text: String) -> [Range<Int>]? {
        guard case .regex(let pattern) = matcher else { return nil }
        return pattern.simpleCaptureRanges(in: text)
    }
}

extension MessagesReporter {
    /// A regex definition's pattern, taken out of its definition once:
    /// taken out for every step (an enum's payload), it was copied each time.
    final class SimpleCaptureFinder {
        private let pattern: Pattern

        /// Nil for a Cucumber Expression, or a regex the fast matcher does not read.
        init?(_ definition: StepDefinition) {
            guard case .regex(let pattern) = definition.matcher, pattern.isSimple else { return nil }
            self.pattern = pattern
        }

        /// ``Pattern/simpleCaptureRanges(in:)``.
        func ranges(in text: String) -> [Range<Int>]? {
            pattern.simpleCaptureRanges(in: text)
        }
    }
}
