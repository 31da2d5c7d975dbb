/// The edit distance between two ASCII texts when it is at most a bound,
/// for the "did you mean" search (``Suggestion``): the search needs the
/// exact distance only of a candidate that could win, so a band of the
/// table around its diagonal is enough, a cheap lower bound rules most
/// candidates out first, and the bytes are compared, not `Character`s.
///
/// The distance is Levenshtein's, as `String.editDistance(to:)` counts it
/// on the lowercased texts; both texts are ASCII with no carriage return
/// (where a byte is a `Character`), lowercased already.
struct BoundedEditDistance {
    /// Reused from call to call: two rows of the table.
    private var previous: [Int] = []
    private var current: [Int] = []

    /// The distance between `a` and `b` when it is at most `bound`, else nil.
    mutating func distance(_ a: [UInt8], _ b: [UInt8], atMost bound: Int) -> Int? {
        guard bound >= 0, abs(a.count - b.count) <= bound else { return nil }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        let outside = bound + 1
        let width = b.count + 2
        if previous.count < width {
            previous = Array(repeating: 0, count: width)
            current = Array(repeating: 0, count: width)
        }
        for j in 0...b.count { previous[j] = j }
        previous[b.count + 1] = outside
        // Ukkonen's band: a path of cost at most `bound` keeps within
        // `bound` cells of the diagonal; a cell outside counts as past it.
        for i in 1...a.count {
            let low = max(1, i - bound), high = min(b.count, i + bound)
            current[low - 1] = low == 1 ? i : outside
            var rowLowest = current[low - 1]
            let byte = a[i - 1]
            for j in low...high {
                let substitution = previous[j - 1] + (byte == b[j - 1] ? 0 : 1)
                let value = min(substitution, previous[j] + 1, current[j - 1] + 1)
                current[j] = value
                if value < rowLowest { rowLowest = value }
            }
            if high < b.count { current[high + 1] = outside }
            // Costs never fall along a path: past the bound in one row is past it for good.
            guard rowLowest <= bound else { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= bound ? previous[b.count] : nil
    }

    /// The bytes of a text the band compares, when it is ASCII with no
    /// carriage return (so each byte is one `Character`); else nil.
    static func bytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte < 0x80, byte != 0x0D else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

/// How many of each ASCII byte a text holds: the difference of two texts'
/// counts is a lower bound of their edit distance (each edit changes at
/// most one count up and one down), found in 128 steps.
struct ByteCounts {
    private var counts: [Int32]

    init(_ bytes: [UInt8]) {
        counts = Array(repeating: 0, count: 128)
        for byte in bytes { counts[Int(byte)] += 1 }
    }

    /// The larger of what one text has that the other lacks, either way
    /// (the "bag distance"): never more than the edit distance.
    func lowerBound(to other: ByteCounts) -> Int {
        var more = 0, fewer = 0
        for index in 0..<128 {
            let difference = Int(counts[index]) - Int(other.counts[index])
            if difference > 0 { more += difference } else { fewer -= difference }
        }
        return max(more, fewer)
    }
}
