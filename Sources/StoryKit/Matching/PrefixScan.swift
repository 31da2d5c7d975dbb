/// Finds the candidates for a run's first steps without a ``PatternIndex``:
/// a one-story run matches a handful of steps, and indexing every pattern's
/// words for them cost more than the matching (1.2 ms of 13.8 for 1,000
/// definitions).
///
/// Most patterns start with `^` and literal text, which ``Pattern`` already
/// keeps: a definition whose prefix neither the line nor the text starts
/// with cannot match, which costs a byte or two to see. The few others are
/// filtered by all their required words (see ``RequiredWords``), found once
/// here. Both are checks the regex itself would make, so the candidates
/// hold every definition that matches, in registration order, and the
/// answers are those of trying every definition.
final class PrefixScan: Sendable {
    /// What rules a definition out, by id.
    private let filters: [Filter]

    private enum Filter: Sendable {
        /// A text must start with this lowercase ASCII prefix.
        case prefix([UInt8])
        /// A line must hold each of these words (as hashes).
        case words([UInt64])
        /// Always tried.
        case none
    }

    /// Whether a scan pays for these definitions: not when many lack a
    /// literal prefix, whose words are then best found once, for the index.
    static func pays(for definitions: [StepDefinition]) -> Bool {
        // Finding a definition's words costs about what the index pays for it.
        var unprefixed = 0
        for definition in definitions {
            if case .regex(let pattern) = definition.matcher, pattern.anchoredPrefix != nil { continue }
            unprefixed += 1
            if unprefixed > definitions.count / 8 { return false }
        }
        return true
    }

    init(definitions: [StepDefinition]) {
        filters = definitions.map { definition in
            if case .regex(let pattern) = definition.matcher, let prefix = pattern.anchoredPrefix { return .prefix(prefix) }
            let words = definition.requiredWords.map { $0.map(RequiredWords.hash) }
                ?? definition.matcher.requiredWordHashes.map(\.hash)
            return words.isEmpty ? .none : .words(words)
        }
    }

    /// Calls `body` with the id of each definition that may match a step
    /// line or its text (the line after the keyword), in registration order.
    func forEachCandidate(line: String, text: String, _ body: (Int) -> Void) {
        var lineWords: [UInt64] = []
        // A non-ASCII line may match where its words do not (case folding).
        let isASCII = RequiredWords.forEachWordHash(of: line) { lineWords.append($0) }
        var line = line, text = text
        line.withUTF8 { line in
            text.withUTF8 { text in
                for (id, filter) in filters.enumerated() {
                    switch filter {
                    case .prefix(let prefix):
                        guard Pattern.hasASCIIPrefix(line, prefix) || Pattern.hasASCIIPrefix(text, prefix) else { continue }
                    case .words(let words):
                        guard !isASCII || words.allSatisfy(lineWords.contains) else { continue }
                    case .none:
                        break
                    }
                    body(id)
                }
            }
        }
    }
}
