/// Where each capture group of a match lies in the step's text, found when
/// the step was matched: reports place arguments from it and never match
/// again (issue 29, item 3).
///
/// UTF-8 offsets into the step text (after the keyword), a start and an end
/// for every capture group of the definition's regex in the order the
/// groups open (nested ones included); none for a group that took no part.
/// Compact, since every step result holds one: one or two groups whose
/// offsets fit 16 bits live inline in one word (most steps); more go in
/// one array of `Int32` pairs (-1 for a group that took no part).
public struct GroupSpans: Sendable, Hashable {
    private enum Storage: Sendable, Hashable {
        case empty
        case one(UInt32)
        case two(UInt64)
        case many([Int32])
    }

    private var storage: Storage

    /// No spans: the match's places are not known.
    public static let none = GroupSpans(storage: .empty)

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The spans of `count` groups, `span(index)` giving each (nil for a
    /// group that took no part).
    init(count: Int, _ span: (Int) -> Range<Int>?) {
        let unpacked: UInt64 = 0xFFFF
        func packed(_ index: Int) -> UInt64? {
            guard let range = span(index) else { return unpacked | unpacked << 16 }
            guard range.lowerBound >= 0, range.upperBound < 0xFFFF else { return nil }
            return UInt64(range.lowerBound) | UInt64(range.upperBound) << 16
        }
        switch count {
        case 0:
            storage = .empty
            return
        case 1:
            if let first = packed(0) {
                storage = .one(UInt32(truncatingIfNeeded: first))
                return
            }
        case 2:
            if let first = packed(0), let second = packed(1) {
                storage = .two(first | second << 32)
                return
            }
        default: break
        }
        var bounds: [Int32] = []
        bounds.reserveCapacity(count * 2)
        for index in 0..<count {
            let range = span(index)
            bounds.append(range.map { Int32(clamping: $0.lowerBound) } ?? -1)
            bounds.append(range.map { Int32(clamping: $0.upperBound) } ?? -1)
        }
        storage = .many(bounds)
    }

    /// The spans of the given ranges.
    init(_ ranges: [Range<Int>?]) {
        self.init(count: ranges.count) { ranges[$0] }
    }

    /// How many groups there are spans for (0: none known).
    public var count: Int {
        switch storage {
        case .empty: 0
        case .one: 1
        case .two: 2
        case .many(let bounds): bounds.count / 2
        }
    }

    /// Whether no spans are known.
    public var isEmpty: Bool { count == 0 }

    /// Where group `index` lies (UTF-8 offsets in the step text), or nil
    /// when it took no part.
    public subscript(index: Int) -> Range<Int>? {
        func unpacked(_ word: UInt64) -> Range<Int>? {
            let start = Int(word & 0xFFFF), end = Int(word >> 16 & 0xFFFF)
            return start == 0xFFFF || end < start ? nil : start..<end
        }
        switch storage {
        case .empty: return nil
        case .one(let word): return unpacked(UInt64(word))
        case .two(let word): return unpacked(word >> (index == 0 ? 0 : 32))
        case .many(let bounds):
            let start = bounds[index * 2], end = bounds[index * 2 + 1]
            return start < 0 || end < start ? nil : Int(start)..<Int(end)
        }
    }

    /// The spans as `Int32` pairs (-1 for a group that took no part), as
    /// the wire and the JSON of a result carry them.
    var bounds: [Int32] {
        if case .many(let bounds) = storage { return bounds }
        var bounds: [Int32] = []
        for index in 0..<count {
            let range = self[index]
            bounds.append(range.map { Int32($0.lowerBound) } ?? -1)
            bounds.append(range.map { Int32($0.upperBound) } ?? -1)
        }
        return bounds
    }

    /// The spans of `Int32` pairs; nil when they are not pairs, each
    /// `-1, -1` or a start no later than its end.
    init?(bounds: [Int32]) {
        guard bounds.count % 2 == 0 else { return nil }
        for index in stride(from: 0, to: bounds.count, by: 2) {
            let start = bounds[index], end = bounds[index + 1]
            guard (start == -1 && end == -1) || (start >= 0 && end >= start) else { return nil }
        }
        self.init(count: bounds.count / 2) { index in
            bounds[index * 2] < 0 ? nil : Int(bounds[index * 2])..<Int(bounds[index * 2 + 1])
        }
    }

    /// These spans moved `offset` bytes back (a match found in the step
    /// line, keyword included, placed in the text after it); none when a
    /// group starts before the text.
    func shifted(back offset: Int) -> GroupSpans {
        guard offset != 0 else { return self }
        var isInside = true
        let moved = GroupSpans(count: count) { index in
            guard let range = self[index] else { return nil }
            if range.lowerBound < offset { isInside = false }
            return max(0, range.lowerBound - offset)..<max(0, range.upperBound - offset)
        }
        return isInside ? moved : .none
    }
}
