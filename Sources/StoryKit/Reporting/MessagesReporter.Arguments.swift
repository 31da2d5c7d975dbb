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
        let simpleRanges = captures.map { $0.ranges(in: text, captured: match.arguments) } ?? definition?.simpleCaptureRanges(in: text)
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
        /// For a pattern anchored at the start that holds nothing but
        /// literal characters and capture groups (no bare `.*`): the count
        /// of literal characters before each group and after the last, and
        /// whether it is anchored at the end; else nil.
        private let layout: (literalsBefore: [Int], literalsAfter: Int, isAnchoredAtEnd: Bool)?

        /// Nil for a Cucumber Expression, or a regex the fast matcher does not read.
        init?(_ definition: StepDefinition) {
            guard case .regex(let pattern) = definition.matcher, pattern.isSimple else { return nil }
            self.pattern = pattern
            var layout: (literalsBefore: [Int], literalsAfter: Int, isAnchoredAtEnd: Bool)?
            if let simple = SimpleRegex(pattern.source), simple.isAnchoredAtStart {
                var literalsBefore: [Int] = []
                var literals = 0
                var isPlaced = true
                for element in simple.elements {
                    switch element {
                    case .literal: literals += 1
                    case .group(_, _, _, true):
                        literalsBefore.append(literals)
                        literals = 0
                    case .group: isPlaced = false
                    }
                }
                if isPlaced { layout = (literalsBefore, literals, simple.isAnchoredAtEnd) }
            }
            self.layout = layout
        }

        /// ``Pattern/simpleCaptureRanges(in:)``.
        func ranges(in text: String) -> [Range<Int>]? {
            pattern.simpleCaptureRanges(in: text)
        }

        /// ``ranges(in:)`` for the texts the matcher captured in `text`
        /// with this pattern: where the pattern allows (``layout``), placed
        /// by their lengths, without matching the pattern again (which cost
        /// a Messages report about a tenth of its time); else found by
        /// matching.
        ///
        /// Placed, they are where the matcher found them: the fast matcher
        /// took them (the text is one it reads, as it was when the step
        /// was matched), its match starts at the start, and each literal
        /// character before a group takes one byte, each group its
        /// captured text. Each text is checked against the bytes at its
        /// place, and the whole against the text's length, so texts that
        /// came from anything else are matched again.
        func ranges(in text: String, captured: [String?]) -> [Range<Int>]? {
            if let layout, let ranges = Self.placed(captured, in: text, layout: layout) { return ranges }
            return ranges(in: text)
        }

        private static func placed(
            _ captured: [String?], in text: String, layout: (literalsBefore: [Int], literalsAfter: Int, isAnchoredAtEnd: Bool)
        ) -> [Range<Int>]? {
            guard captured.count == layout.literalsBefore.count else { return nil }
            var text = text
            return text.withUTF8 { bytes -> [Range<Int>]? in
                guard SimpleRegex.canMatch(bytes) else { return nil }
                var ranges: [Range<Int>] = []
                ranges.reserveCapacity(captured.count)
                var position = 0
                for index in captured.indices {
                    guard var value = captured[index] else { return nil }
                    position += layout.literalsBefore[index]
                    let isThere = value.withUTF8 { value in
                        position + value.count <= bytes.count
                            && (value.isEmpty || memcmp(bytes.baseAddress! + position, value.baseAddress!, value.count) == 0)
                    }
                    guard isThere else { return nil }
                    ranges.append(position..<(position + value.utf8.count))
                    position += value.utf8.count
                }
                position += layout.literalsAfter
                guard layout.isAnchoredAtEnd ? position == bytes.count : position <= bytes.count else { return nil }
                return ranges
            }
        }
    }
}
