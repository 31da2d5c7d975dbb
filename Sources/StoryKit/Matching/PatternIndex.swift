/// An index from words to the step definitions that require them, so only
/// plausible candidates reach the regex engine.
///
/// Each definition is filed under the rarest word it requires (see
/// ``RequiredWords``); definitions that require none are always tried. The
/// candidates for a step come back in registration order, so the first match
/// and the ambiguity answers are those of trying every definition.
struct PatternIndex: Sendable {
    /// Definitions by the hash of the word they are filed under; a hash
    /// collision only adds candidates, never loses one.
    private let byWord: [UInt64: [Int]]
    private let alwaysTried: [Int]
    private let count: Int

    init(definitions: [StepDefinition]) {
        let required = definitions.map { $0.requiredWords }
        var frequency: [String: Int] = [:]
        for words in required { for word in Set(words) { frequency[word, default: 0] += 1 } }
        var byWord: [UInt64: [Int]] = [:]
        var alwaysTried: [Int] = []
        for (id, words) in required.enumerated() {
            if let rarest = words.min(by: { (frequency[$0]!, $1.count) < (frequency[$1]!, $0.count) }) {
                byWord[RequiredWords.hash(rarest), default: []].append(id)
            } else {
                alwaysTried.append(id)
            }
        }
        self.byWord = byWord
        self.alwaysTried = alwaysTried
        count = definitions.count
    }

    /// The ids of the definitions that may match a step line, in order.
    func candidates(forLine line: String) -> [Int] {
        var ids = alwaysTried
        let isASCII = RequiredWords.forEachWordHash(of: line) { hash in
            if let filed = byWord[hash] { ids += filed }
        }
        guard isASCII else { return Array(0..<count) }
        if ids.count > 1 {
            ids.sort()
            ids = ids.enumerated().filter { $0.offset == 0 || ids[$0.offset - 1] != $0.element }.map(\.element)
        }
        return ids
    }
}
