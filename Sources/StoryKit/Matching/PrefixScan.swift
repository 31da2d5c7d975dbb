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
    /// What rules each definition out, by id: a range of ``prefixes`` or of
    /// ``words``. Flat arrays of plain values, so the scan retains nothing
    /// per definition (an enum with an array each cost twice the scan).
    private let filters: [Filter]
    /// Every prefix, lowercase ASCII, end to end.
    private let prefixes: [UInt8]
    /// Every list of required words (as hashes), end to end.
    private let words: [UInt64]

    private struct Filter {
        enum Kind {
            /// A text must start with the prefix.
            case prefix
            /// A line must hold each of the words.
            case words
            /// Always tried.
            case none
        }
        var kind: Kind
        var start: Int
        var count: Int
    }

    /// Whether a scan pays for these definitions: not when many lack a
    /// literal prefix, whose words are then best found once, for the index.
    static func pays(for definitions: [StepDefinition]) -> Bool {
        // Finding a definition's words costs about what the index pays for it.
        var unprefixed = 0
        for definition in definitions where definition.anchoredPrefix == nil {
            unprefixed += 1
            if unprefixed > definitions.count / 8 { return false }
        }
        return true
    }

    init(definitions: [StepDefinition]) {
        var filters: [Filter] = []
        filters.reserveCapacity(definitions.count)
        var prefixes: [UInt8] = []
        var words: [UInt64] = []
        for definition in definitions {
            if let prefix = definition.anchoredPrefix {
                filters.append(Filter(kind: .prefix, start: prefixes.count, count: prefix.count))
                prefixes += prefix
                continue
            }
            let required = definition.requiredWords.map { $0.map(RequiredWords.hash) }
                ?? definition.matcher.requiredWordHashes.map(\.hash)
            filters.append(Filter(kind: required.isEmpty ? .none : .words, start: words.count, count: required.count))
            words += required
        }
        self.filters = filters
        self.prefixes = prefixes
        self.words = words
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
                filters.withUnsafeBufferPointer { filters in
                    prefixes.withUnsafeBufferPointer { prefixes in
                        words.withUnsafeBufferPointer { words in
                            for (id, filter) in filters.enumerated() {
                                let range = filter.start..<(filter.start + filter.count)
                                switch filter.kind {
                                case .prefix:
                                    let prefix = UnsafeBufferPointer(rebasing: prefixes[range])
                                    guard Self.hasPrefix(line, prefix) || Self.hasPrefix(text, prefix) else { continue }
                                case .words:
                                    guard !isASCII || words[range].allSatisfy(lineWords.contains) else { continue }
                                case .none:
                                    break
                                }
                                body(id)
                            }
                        }
                    }
                }
            }
        }
    }

    /// ``Pattern``'s own test (``Pattern/hasASCIIPrefix(_:_:)``), on a
    /// prefix in place: whether the text starts with the lowercase ASCII
    /// prefix, ignoring the case of ASCII letters; a non-ASCII byte in the
    /// text where the prefix is answers yes (case folding may then equate
    /// characters).
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        for offset in 0..<prefix.count {
            guard offset < bytes.count else { return false }
            let byte = bytes[offset]
            if byte >= 0x80 { return true }
            if SimpleRegex.lowered(byte) != prefix[offset] { return false }
        }
        return true
    }
}
