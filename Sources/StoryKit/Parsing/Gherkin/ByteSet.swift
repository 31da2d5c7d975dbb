/// A set of byte values, as a 256-bit mask: the bytes that a dialect's
/// keywords start with, so the line matcher can pass over a line that
/// can't start a keyword with a single test.
struct ByteSet: Sendable {
    /// One bit per byte value: bit `b % 64` of word `b / 64`.
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The set of the first bytes of `keywords` (empty keywords are ignored).
    init<Keywords: Sequence>(firstBytesOf keywords: Keywords) where Keywords.Element == [UInt8] {
        for keyword in keywords {
            if let first = keyword.first { insert(first) }
        }
    }

    /// Adds `byte` to the set.
    mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << (byte & 63)
        switch byte >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    /// Whether the set holds `byte`.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word & (UInt64(1) << (byte & 63)) != 0
    }
}
