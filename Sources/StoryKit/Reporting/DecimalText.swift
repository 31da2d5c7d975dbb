/// Durations as decimal text without Foundation's `String(format:)`,
/// which is slow enough to matter once per story in a report.
enum DecimalText {
    /// `value / unit` with `digits` decimals, the text `%.<digits>f` makes
    /// of it; nil at an exact tie, where printf's rounding of the binary
    /// value decides, so the caller asks `String(format:)`.
    ///
    /// `unit` must be a multiple of 10 to the `digits` (nanoseconds as
    /// seconds with 3 decimals: unit 1_000_000_000, digits 3).
    static func fixed(_ value: UInt64, unit: UInt64, digits: Int) -> String? {
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let step = unit / scale
        let remainder = value % step
        if step > 1, remainder * 2 == step { return nil }
        let rounded = value / step + (remainder * 2 > step ? 1 : 0)
        guard digits > 0 else { return String(rounded) }
        let fraction = String(rounded % scale)
        return String(rounded / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
