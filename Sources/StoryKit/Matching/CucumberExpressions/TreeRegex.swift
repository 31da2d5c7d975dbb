import Foundation

/// A compiled regular expression that reports its match as a tree of
/// capture groups; the only Cucumber-expression file that touches
/// `NSRegularExpression`.
struct TreeRegex: Sendable {
    /// The pattern as written.
    let pattern: String
    /// The nesting of the pattern's capture groups.
    let shape: GroupShape
    private let regex: NSRegularExpression
    private let isWholeTextMatch: Bool

    /// Compiles a pattern.
    ///
    /// - Parameters:
    ///   - pattern: The regular expression, in ICU syntax.
    ///   - compiledPattern: What to compile instead, when it differs from
    ///     `pattern` only in anchoring.
    ///   - isWholeTextMatch: Whether a match must cover the whole text.
    /// - Throws: ``CucumberExpressionError`` when the pattern doesn't compile.
    init(
        _ pattern: String, compiling compiledPattern: String? = nil, isWholeTextMatch: Bool = false
    )
        throws(CucumberExpressionError)
    {
        self.pattern = pattern
        self.isWholeTextMatch = isWholeTextMatch
        // ICU first: it refuses groups nested deeper than it can compile,
        // so the shape (walked recursively) is never deeper than that.
        do {
            regex = try NSRegularExpression(pattern: compiledPattern ?? pattern)
        } catch {
            throw CucumberExpressionError(
                message: "The regular expression /\(pattern)/ does not compile: \(error)")
        }
        guard GroupShape.nestingDepth(of: pattern) <= GroupShape.depthLimit else {
            throw CucumberExpressionError(
                message: "The regular expression /\(pattern)/ nests capture groups more than \(GroupShape.depthLimit) deep")
        }
        self.shape = GroupShape(pattern: pattern)
    }

    /// Matches text, returning the root group (the whole match) with the
    /// capture groups as its children, or `nil` when the text doesn't match.
    func match(_ text: String) -> RegexGroup? {
        firstMatch(text).map { tree($0, in: text) }
    }

    /// ``match(_:)`` with where each capture group lies in `text`
    /// (``GroupSpans``: UTF-8 offsets, in the order the groups open).
    func located(_ text: String) -> (root: RegexGroup, spans: GroupSpans)? {
        guard let result = firstMatch(text) else { return nil }
        let count = shape.groupCount - 1
        var ranges: [Range<Int>?] = []
        ranges.reserveCapacity(count)
        for index in stride(from: 1, through: count, by: 1) {
            guard index < result.numberOfRanges, let range = Range(result.range(at: index), in: text) else {
                ranges.append(nil)
                continue
            }
            let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
            ranges.append(start..<(start + text.utf8.distance(from: range.lowerBound, to: range.upperBound)))
        }
        return (tree(result, in: text), GroupSpans(ranges))
    }

    private func firstMatch(_ text: String) -> NSTextCheckingResult? {
        let whole = NSRange(text.startIndex..., in: text)
        guard let result = regex.firstMatch(in: text, range: whole) else { return nil }
        if isWholeTextMatch && result.range != whole { return nil }
        return result
    }

    private func tree(_ result: NSTextCheckingResult, in text: String) -> RegexGroup {
        var next = 0
        func build(_ shape: GroupShape) -> RegexGroup {
            let index = next
            next += 1
            let children = shape.children.map(build)
            var value: String?
            var start: Int?
            if index < result.numberOfRanges, let range = Range(result.range(at: index), in: text) {
                value = String(text[range])
                start = result.range(at: index).location
            }
            return RegexGroup(value: value, start: start, children: children)
        }
        return build(shape)
    }
}
