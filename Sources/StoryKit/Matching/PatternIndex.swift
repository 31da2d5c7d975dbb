/// An index from words to the step definitions that require them, so only
/// plausible candidates reach the regex engine.
///
/// Each definition is filed under the rarest word it requires (see
/// ``RequiredWords``); definitions that require none are always tried. The
/// candidates for a step come back in registration order, so the first match
/// and the ambiguity answers are those of trying every definition.
///
/// A class, made once per registry: a step's lookups then share one
/// reference instead of copying (and retaining) the tables' arrays.
final class PatternIndex: Sendable {
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
        var ids: [Int] = []
        forEachCandidate(forLine: line) { ids.append($0) }
        return ids
    }

    /// Calls `body` with the id of each definition that may match a step
    /// line, in registration order, each once. A line's words find a few
    /// short lists, merged on the stack: matching a step allocates nothing here.
    func forEachCandidate(forLine line: String, _ body: (Int) -> Void) {
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: Self.mostLists) { lists in
            var listCount = 0
            var total = 0
            let isASCII = RequiredWords.forEachWordHash(of: line) { hash in
                guard let list = byWord.lookup(hash), listCount < lists.count else { return }
                lists[listCount] = list
                listCount += 1
                total += list.count
            }
            // A non-ASCII line may match where its words do not (case
            // folding), and a line of very many filed words is rare: every
            // definition is tried.
            guard isASCII, listCount < lists.count else {
                for id in 0..<count { body(id) }
                return
            }
            if listCount == 0 || (listCount == 1 && alwaysTried.isEmpty) {
                // One list, or none: in order already.
                if listCount == 1 { for slot in lists[0] { body(byWord.ids[slot]) } }
                for id in alwaysTried { body(id) }
                return
            }
            withUnsafeTemporaryAllocation(of: Int.self, capacity: total + alwaysTried.count) { merged in
                var used = 0
                for list in lists[..<listCount] {
                    for slot in list { merged[used] = byWord.ids[slot]; used += 1 }
                }
                for id in alwaysTried { merged[used] = id; used += 1 }
                var ids = UnsafeMutableBufferPointer(rebasing: merged[..<used])
                ids.sort()
                for (offset, id) in ids.enumerated() where offset == 0 || ids[offset - 1] != id { body(id) }
            }
        }
    }

    /// The most lists a line's words gather before every definition is
    /// tried instead.
    private static let mostLists = 64
}

/// Lists of ids by word hash, in an open-addressed table: the keys are
/// FNV-1a hashes already, so a lookup costs a multiply and a probe or two,
/// not a second hash. The lists lie end to end in one array, and a lookup
/// answers with a range of it: nothing is retained or copied.
private final class WordTable: Sendable {
    /// The key in each slot; 0 marks an empty slot (a real 0 is stored as 1).
    private let keys: [UInt64]
    /// Each slot's list, as a range of ``ids``.
    private let lists: [Range<Int>]
    /// Every list's ids, end to end, each list in ascending order.
    let ids: [Int]
    private let shift: UInt64

    init(_ entries: [UInt64: [Int]]) {
        var bits: UInt64 = 4
        while (1 << bits) < entries.count * 2 { bits += 1 }
        shift = 64 - bits
        var keys = [UInt64](repeating: 0, count: 1 << bits)
        var lists = [Range<Int>](repeating: 0..<0, count: 1 << bits)
        var ids: [Int] = []
        for (hash, filed) in entries {
            let key = Self.key(hash)
            var slot = Self.slot(key, shift: shift)
            while keys[slot] != 0 { slot = (slot + 1) & (keys.count - 1) }
            keys[slot] = key
            lists[slot] = ids.count..<(ids.count + filed.count)
            ids += filed
        }
        self.keys = keys
        self.lists = lists
        self.ids = ids
    }

    /// The list filed under the hash, as a range of ``ids``, if any.
    func lookup(_ hash: UInt64) -> Range<Int>? {
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
