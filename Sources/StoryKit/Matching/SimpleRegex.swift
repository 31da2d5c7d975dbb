/// A matcher for the simple regexes most step patterns are — literal text,
/// anchors and a few common capture groups — that works on ASCII bytes and
/// gives the same answers as NSRegularExpression, many times faster.
///
/// ``Pattern`` uses it only for patterns it fully understands and for texts
/// of printable ASCII; everything else goes to NSRegularExpression. Matching
/// is a case-insensitive search with greedy, backtracking groups, as ICU's.
struct SimpleRegex: Sendable {
    /// One element of a pattern.
    enum Element: Equatable, Sendable {
        /// An ASCII character, lowercased if a letter.
        case literal(UInt8)
        /// A capture group (or, when `captures` is false, a bare repeat) of
        /// one character class repeated, at least once when `atLeastOne`,
        /// with an optional leading `-` when `signed`.
        case group(CharacterClass, atLeastOne: Bool, signed: Bool, captures: Bool = true)
    }

    /// The character classes groups may repeat.
    enum CharacterClass: Equatable, Sendable {
        case digit, word, nonSpace, any
        case notByte(UInt8)

        func contains(_ byte: UInt8) -> Bool {
            switch self {
            case .digit: byte >= 0x30 && byte <= 0x39
            case .word: SimpleRegex.isWordByte(byte)
            case .nonSpace: byte != 0x20 && byte != 0x09
            case .any: true
            case .notByte(let excluded): SimpleRegex.lowered(byte) != excluded
            }
        }
    }

    let elements: [Element]
    let isAnchoredAtStart: Bool
    let isAnchoredAtEnd: Bool
    let groupCount: Int

    /// Reads a pattern; nil when it uses anything this matcher does not know.
    init?(_ source: String) {
        var source = source
        guard let read = source.withUTF8(Self.read) else { return nil }
        elements = read.elements
        isAnchoredAtStart = read.isAnchoredAtStart
        isAnchoredAtEnd = read.isAnchoredAtEnd
        groupCount = read.groupCount
    }

    /// Reads a pattern's UTF-8 bytes where they are, with no copy: every
    /// definition's pattern is read when it is registered.
    private static func read(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (elements: [Element], isAnchoredAtStart: Bool, isAnchoredAtEnd: Bool, groupCount: Int)? {
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        // The pattern between its anchors.
        var start = 0
        var end = bytes.count
        let isAnchoredAtStart = bytes.first == UInt8(ascii: "^")
        if isAnchoredAtStart { start = 1 }
        let isAnchoredAtEnd = end > start && bytes[end - 1] == UInt8(ascii: "$") && !(end - start >= 2 && bytes[end - 2] == UInt8(ascii: "\\"))
        if isAnchoredAtEnd { end -= 1 }
        var elements: [Element] = []
        elements.reserveCapacity(end - start)
        var groups = 0
        var captures = 0
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "(") {
                guard let (group, length) = Self.group(in: bytes, at: index, end: end) else { return nil }
                elements.append(group)
                groups += 1
                captures += 1
                index += length
            } else if byte == UInt8(ascii: "\\") {
                guard index + 1 < end, Self.isPunctuation(bytes[index + 1]) else { return nil }
                elements.append(.literal(bytes[index + 1]))
                index += 2
            } else if byte == UInt8(ascii: "."), index + 1 < end, (bytes[index + 1] == UInt8(ascii: "*") || bytes[index + 1] == UInt8(ascii: "+")) {
                if index + 2 < end, Self.isQuantifier(bytes[index + 2]) { return nil }
                elements.append(.group(.any, atLeastOne: bytes[index + 1] == UInt8(ascii: "+"), signed: false, captures: false))
                groups += 1
                index += 2
            } else if Self.isSpecial(byte) {
                return nil
            } else {
                elements.append(.literal(Self.lowered(byte)))
                index += 1
            }
        }
        // Matching recurses once a group (literals are a loop): more groups
        // than this go to ICU, which has its own limits.
        guard groups <= Self.groupLimit else { return nil }
        return (elements, isAnchoredAtStart, isAnchoredAtEnd, captures)
    }

    /// The most groups (captures and bare repeats) a pattern this matcher
    /// takes may have: its matching recurses once a group.
    static let groupLimit = 32

    /// The groups this matcher knows, as written (static strings: looking
    /// them up retains nothing).
    private static let groups: [(StaticString, Element)] = [
        (#"(\d+)"#, .group(.digit, atLeastOne: true, signed: false)),
        (#"(-?\d+)"#, .group(.digit, atLeastOne: true, signed: true)),
        (#"(\d*)"#, .group(.digit, atLeastOne: false, signed: false)),
        (#"(\w+)"#, .group(.word, atLeastOne: true, signed: false)),
        (#"(\S+)"#, .group(.nonSpace, atLeastOne: true, signed: false)),
        ("(.*)", .group(.any, atLeastOne: false, signed: false)),
        ("(.+)", .group(.any, atLeastOne: true, signed: false)),
        (#"([^"]*)"#, .group(.notByte(UInt8(ascii: "\"")), atLeastOne: false, signed: false)),
        (#"([^']*)"#, .group(.notByte(UInt8(ascii: "'")), atLeastOne: false, signed: false)),
    ]

    /// The group written at `index` of the pattern's bytes before `end`,
    /// and its length.
    private static func group(in bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (Element, Int)? {
        for (written, element) in groups {
            let length = written.utf8CodeUnitCount
            guard end - index >= length, (0..<length).allSatisfy({ bytes[index + $0] == written.utf8Start[$0] }) else { continue }
            // A quantifier after the group changes what it means.
            if index + length < end, Self.isQuantifier(bytes[index + length]) { return nil }
            return (element, length)
        }
        return nil
    }

    /// Whether a text is one this matcher answers exactly as ICU would:
    /// printable ASCII and tabs.
    static func canMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
    }

    /// The captured texts of the first match in the text, or nil.
    func captures(in text: String) -> [String?]? {
        var text = text
        return text.withUTF8 { captures(in: $0) }
    }

    /// The captured texts of the first match in the UTF-8 bytes of a text, or nil.
    func captures(in bytes: UnsafeBufferPointer<UInt8>) -> [String?]? {
        located(in: bytes)?.texts
    }

    /// The captured texts of the first match in the UTF-8 bytes of a text,
    /// with where each group lies (byte offsets), or nil; the groups of
    /// this matcher are never nested and always take part.
    func located(in bytes: UnsafeBufferPointer<UInt8>) -> (texts: [String?], spans: GroupSpans)? {
        // The groups' ranges live on the stack: no allocation per match.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: groupCount) { ranges in
            _ = ranges.initialize(from: repeatElement(0..<0, count: groupCount))
            let lastStart = isAnchoredAtStart ? 0 : bytes.count
            for start in 0...lastStart
            where match(bytes, elementIndex: 0, position: start, groupIndex: 0, ranges: ranges) {
                var texts: [String?] = []
                texts.reserveCapacity(groupCount)
                for range in ranges {
                    texts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
                }
                return (texts, GroupSpans(count: groupCount) { ranges[$0] })
            }
            return nil
        }
    }

    private func match(
        _ bytes: UnsafeBufferPointer<UInt8>, elementIndex: Int, position: Int, groupIndex: Int,
        ranges: UnsafeMutableBufferPointer<Range<Int>>
    ) -> Bool {
        // Literals in a loop, not a call each: a pattern may be long.
        var elementIndex = elementIndex
        var position = position
        while elementIndex < elements.count, case .literal(let expected) = elements[elementIndex] {
            guard position < bytes.count, Self.lowered(bytes[position]) == expected else { return false }
            elementIndex += 1
            position += 1
        }
        guard elementIndex < elements.count else {
            return !isAnchoredAtEnd || position == bytes.count
        }
        switch elements[elementIndex] {
        case .literal:
            return false  // Consumed by the loop above.
        case .group(let characterClass, let atLeastOne, let signed, let captures):
            let hasSign = signed && position < bytes.count && bytes[position] == UInt8(ascii: "-")
            // Greedy: with the sign first, then without (a stride, not an
            // array made for every group tried).
            for bodyStart in stride(from: hasSign ? position + 1 : position, through: position, by: -1) {
                var end = bodyStart
                while end < bytes.count, characterClass.contains(bytes[end]) { end += 1 }
                let shortest = bodyStart + (atLeastOne ? 1 : 0)
                guard end >= shortest else { continue }
                var candidate = end
                while candidate >= shortest {
                    if captures { ranges[groupIndex] = position..<candidate }
                    if match(bytes, elementIndex: elementIndex + 1, position: candidate, groupIndex: groupIndex + (captures ? 1 : 0), ranges: ranges) {
                        return true
                    }
                    candidate -= 1
                }
            }
            return false
        }
    }

    /// Whether the byte starts a quantifier: `?`, `*`, `+` or `{`.
    static func isQuantifier(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"): true
        default: false
        }
    }

    /// Whether the byte means more than itself outside a group: `[].*+?{}|^$)`.
    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "."), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"), UInt8(ascii: "^"),
            UInt8(ascii: "$"), UInt8(ascii: ")"):
            true
        default: false
        }
    }

    static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        let lower = lowered(byte)
        return (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }

    private static func isPunctuation(_ byte: UInt8) -> Bool {
        !isWordByte(byte) && byte != 0x20
    }
}
