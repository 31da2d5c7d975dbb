/// Finds the words a regex pattern requires as whole words in any text it
/// matches, so an index can skip patterns whose words a step lacks.
///
/// The analysis is conservative: it reads only literal text outside groups,
/// stops at anything it does not understand, and returns no words for a
/// pattern with a top-level alternation. A word counts only when literal
/// non-alphanumeric characters or anchors stand on both sides of it, so it
/// must appear in the text between non-alphanumeric characters. Words are
/// ASCII letters and digits, lowercased.
enum RequiredWords {
    /// The required words of a regex pattern (possibly none).
    static func of(regex pattern: String) -> [String] {
        var words: [String] = []
        // Word characters are ASCII letters and digits: lowercase their bytes.
        forEachWord(inRegex: pattern) { words.append(String(decoding: $0.lazy.map(SimpleRegex.lowered), as: UTF8.self)) }
        return words
    }

    /// The hash (as ``hash(_:)`` gives it) and length of each required word
    /// of a regex pattern: what the index files a pattern under, without
    /// making the words.
    static func hashes(ofRegex pattern: String) -> [(hash: UInt64, length: Int)] {
        var hashes: [(hash: UInt64, length: Int)] = []
        forEachWord(inRegex: pattern) { word in
            hashes.append((fnv(word.lazy.map(SimpleRegex.lowered)), word.count))
        }
        return hashes
    }

    /// Calls `body` with the bytes of each required word of a regex
    /// pattern, as written (not lowercased).
    private static func forEachWord(inRegex pattern: String, _ body: (ArraySlice<UInt8>) -> Void) {
        // UTF-8 bytes, not scalars: every byte of a non-ASCII character is
        // 0x80 or above, never a regex metacharacter, so each decision is
        // the one the scalars would give, without decoding them.
        let characters = Array(pattern.utf8)
        if contains(characters, "\\Q") || contains(characters, "(?x") || hasTopLevelAlternation(characters) { return }
        var reader = LiteralReader(characters: characters)
        while reader.index < characters.count {
            if reader.depth > 0 {
                reader.skipInGroup()
            } else if !reader.readTopLevel(body) {
                return
            }
        }
        reader.endRun(boundaryAfter: false, body)
    }

    /// Reads a pattern's literal text outside groups, a byte at a time,
    /// into runs whose bounded words it hands on.
    private struct LiteralReader {
        let characters: [UInt8]
        /// The literal text being read, and whether a boundary stands before it.
        var run: [UInt8] = []
        var runStartsAtBoundary = false
        var index = 0
        /// How deep in groups the reader is (their text is skipped).
        var depth = 0

        init(characters: [UInt8]) { self.characters = characters }

        /// Hands on the bounded words of the run, and starts a new one.
        mutating func endRun(boundaryAfter: Bool, _ body: (ArraySlice<UInt8>) -> Void) {
            if !run.isEmpty {
                boundedWords(in: run, boundaryBefore: runStartsAtBoundary, boundaryAfter: boundaryAfter, body)
                run.removeAll(keepingCapacity: true)
            }
            runStartsAtBoundary = false
        }

        /// Adds a literal character to the run, unless a quantifier makes it
        /// optional or repeated, which ends the run before it.
        mutating func appendLiteral(_ c: UInt8, _ body: (ArraySlice<UInt8>) -> Void) {
            if index < characters.count, characters[index] < 0x80, SimpleRegex.isQuantifier(characters[index]) {
                endRun(boundaryAfter: false, body)
                skipQuantifier(characters, &index)
            } else if c < 0x80 {
                run.append(c)
            } else {
                endRun(boundaryAfter: false, body)
            }
        }

        /// Steps over one byte (or escape) inside a group.
        mutating func skipInGroup() {
            let c = characters[index]
            if c == UInt8(ascii: "\\") { index += 2; return }
            if c == UInt8(ascii: "(") { depth += 1 } else if c == UInt8(ascii: ")") { depth -= 1 }
            index += 1
        }

        /// Reads one character (or escape, group start, class) outside groups;
        /// false when the pattern ends in a lone backslash, which ends the analysis.
        mutating func readTopLevel(_ body: (ArraySlice<UInt8>) -> Void) -> Bool {
            let c = characters[index]
            switch c {
            case UInt8(ascii: "^") where index == 0:
                runStartsAtBoundary = true
                index += 1
            case UInt8(ascii: "$") where index == characters.count - 1:
                endRun(boundaryAfter: true, body)
                index += 1
            case UInt8(ascii: "("):
                endRun(boundaryAfter: false, body)
                depth = 1
                index += 1
                skipQuantifier(characters, &index)
            case UInt8(ascii: "\\"):
                guard index + 1 < characters.count else { return false }
                readEscape(body)
            case UInt8(ascii: "["), UInt8(ascii: "."), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"),
                UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: ")"):
                endRun(boundaryAfter: false, body)
                if c == UInt8(ascii: "[") { skipClass(characters, &index) } else { index += 1 }
                skipQuantifier(characters, &index)
            default:
                index += 1
                if c >= 0x80 {
                    // The rest of a non-ASCII character's bytes: one character, as a scalar is.
                    while index < characters.count, characters[index] & 0xC0 == 0x80 { index += 1 }
                }
                appendLiteral(c, body)
            }
            return true
        }

        /// Reads a backslash and the character after it: escaped punctuation
        /// is a literal, any other escape ends the run.
        private mutating func readEscape(_ body: (ArraySlice<UInt8>) -> Void) {
            let escaped = characters[index + 1]
            if isPunctuation(escaped) {
                index += 2
                appendLiteral(escaped, body)
            } else {
                // A non-ASCII character escaped: past all of its bytes, as past one scalar.
                index += 2
                while escaped >= 0x80, index < characters.count, characters[index] & 0xC0 == 0x80 { index += 1 }
                endRun(boundaryAfter: false, body)
                skipQuantifier(characters, &index)
            }
        }
    }

    private static func boundedWords(in run: [UInt8], boundaryBefore: Bool, boundaryAfter: Bool, _ body: (ArraySlice<UInt8>) -> Void) {
        var start = 0
        while start < run.count {
            guard isWordByte(run[start]) else { start += 1; continue }
            var end = start
            while end < run.count, isWordByte(run[end]) { end += 1 }
            let before = start > 0 || boundaryBefore
            let after = end < run.count || boundaryAfter
            if before && after { body(run[start..<end]) }
            start = end
        }
    }

    /// Whether the bytes hold the ASCII needle.
    private static func contains(_ bytes: [UInt8], _ needle: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    private static func hasTopLevelAlternation(_ characters: [UInt8]) -> Bool {
        var depth = 0, index = 0
        while index < characters.count {
            switch characters[index] {
            case UInt8(ascii: "\\"):
                index += 1
                // An escaped non-ASCII character: past all of its bytes.
                while index + 1 < characters.count, characters[index] >= 0x80, characters[index + 1] & 0xC0 == 0x80 { index += 1 }
            case UInt8(ascii: "["): skipClass(characters, &index); continue
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            case UInt8(ascii: "|") where depth == 0: return true
            default: break
            }
            index += 1
        }
        return false
    }

    private static func skipClass(_ characters: [UInt8], _ index: inout Int) {
        index += 1
        if index < characters.count, characters[index] == UInt8(ascii: "^") { index += 1 }
        if index < characters.count, characters[index] == UInt8(ascii: "]") { index += 1 }
        var depth = 1
        while index < characters.count, depth > 0 {
            switch characters[index] {
            case UInt8(ascii: "\\"): index += 1
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            default: break
            }
            index += 1
        }
    }

    private static func skipQuantifier(_ characters: [UInt8], _ index: inout Int) {
        while index < characters.count {
            switch characters[index] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"): index += 1
            case UInt8(ascii: "{"):
                while index < characters.count, characters[index] != UInt8(ascii: "}") { index += 1 }
                index += 1
            default: return
            }
        }
    }

    /// Whether an escaped character stands for itself.
    private static func isPunctuation(_ c: UInt8) -> Bool {
        c < 0x80 && !isWordByte(c) && c != UInt8(ascii: " ")
    }

    private static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
    }

    static func isWordCharacter(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
    }

    /// Calls `body` with the hash of each lowercased word of a text, split
    /// at every other character; returns false when the text is not ASCII,
    /// since case-insensitive matching may then equate characters the split
    /// cannot see (the caller then ignores what `body` was given).
    static func forEachWordHash(of text: String, _ body: (UInt64) -> Void) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var hash = fnvOffset
            var isInWord = false
            for byte in bytes {
                // Callers try every definition when the text is not ASCII.
                guard byte < 0x80 else { return false }
                let lowered = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
                if (lowered >= 0x61 && lowered <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                    hash = (hash ^ UInt64(lowered)) &* fnvPrime
                    isInWord = true
                } else if isInWord {
                    body(hash)
                    hash = fnvOffset
                    isInWord = false
                }
            }
            if isInWord { body(hash) }
            return true
        }
    }

    /// The hash of a lowercase ASCII word, as ``forEachWordHash(of:_:)``
    /// computes it (FNV-1a).
    static func hash(_ word: String) -> UInt64 {
        fnv(word.utf8)
    }

    /// FNV-1a of the bytes.
    private static func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(fnvOffset) { ($0 ^ UInt64($1)) &* fnvPrime }
    }

    private static let fnvOffset: UInt64 = 0xCBF2_9CE4_8422_2325
    private static let fnvPrime: UInt64 = 0x100_0000_01B3
}
