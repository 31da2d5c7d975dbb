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
    private let byWord: WordTable
    private let alwaysTried: [Int]
    private let count: Int

    init(definitions: [StepDefinition]) {
        // Words are counted by their hashes, which are cheaper to look up
        // than the words; a collision only files a definition under a word
        // that is not the rarest, which costs candidates, never answers.
        let required = definitions.map { definition in
            definition.requiredWords.map { $0.map { (hash: RequiredWords.hash($0), length: $0.utf8.count) } }
                ?? definition.matcher.requiredWordHashes
        }
        var frequency: [UInt64: Int] = [:]
        frequency.reserveCapacity(definitions.count * 4)
        for words in required {
            for (offset, word) in words.enumerated() where !words[..<offset].contains(where: { $0.hash == word.hash }) {
                frequency[word.hash, default: 0] += 1
            }
        }
        var byWord: [UInt64: [Int]] = [:]
        byWord.reserveCapacity(definitions.count)
        var alwaysTried: [Int] = []
        for (id, words) in required.enumerated() {
            // The rarest word, and of those the longest: each word's count looked up once.
            var rarest: (hash: UInt64, count: Int, length: Int)?
            for word in words {
                let count = frequency[word.hash]!
                if let best = rarest, (best.count, -best.length) <= (count, -word.length) { continue }
                rarest = (word.hash, count, word.length)
            }
            if let rarest {
                byWord[rarest.hash, default: []].append(id)
            } else {
                alwaysTried.append(id)
            }
        }
        self.byWord = WordTable(byWord)
        self.alwaysTried = alwaysTried
        count = definitions.count
    }

    /// The ids of the definitions that may match a step line, in order.
    func candidates(forLine line: String) -> [Int] {
        var ids = alwaysTried
        let isASCII = RequiredWords.forEachWordHash(of: line) { hash in
            // The usual case, one word's list alone, shares that list.
            if let filed = byWord.lookup(hash) { if ids.isEmpty { ids = filed } else { ids += filed } }
        }
        guard isASCII else { return Array(0..<count) }
        if ids.count > 1 {
            ids.sort()
            ids = ids.enumerated().filter { $0.offset == 0 || ids[$0.offset - 1] != $0.element }.map(\.element)
        }
        return ids
    }
}

/// Lists of ids by word hash, in an open-addressed table: the keys are
/// FNV-1a hashes already, so a lookup costs a multiply and a probe or two,
/// not a second hash.
private struct WordTable: Sendable {
    /// The key in each slot; 0 marks an empty slot (a real 0 is stored as 1).
    private let keys: [UInt64]
    private let lists: [[Int]]
    private let shift: UInt64

    init(_ entries: [UInt64: [Int]]) {
        var bits: UInt64 = 4
        while (1 << bits) < entries.count * 2 { bits += 1 }
        shift = 64 - bits
        var keys = [UInt64](repeating: 0, count: 1 << bits)
        var lists = [[Int]](repeating: [], count: 1 << bits)
        for (hash, ids) in entries {
            let key = Self.key(hash)
            var slot = Self.slot(key, shift: shift)
            while keys[slot] != 0 { slot = (slot + 1) & (keys.count - 1) }
            keys[slot] = key
            lists[slot] = ids
        }
        self.keys = keys
        self.lists = lists
    }

    /// The list filed under the hash, if any.
    func lookup(_ hash: UInt64) -> [Int]? {
        let key = Self.key(hash)
        var slot = Self.slot(key, shift: shift)
        while true {
            let found = keys[slot]
            if found == key { return lists[slot] }
            if found == 0 { return nil }
            slot = (slot + 1) & (keys.count - 1)
        }
    }

    private static func key(_ hash: UInt64) -> UInt64 { hash == 0 ? 1 : hash }

    /// The top bits of the key times a Fibonacci constant.
    private static func slot(_ key: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
