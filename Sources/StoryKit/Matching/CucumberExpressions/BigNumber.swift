import Foundation

/// A number of any size, kept exactly as the digits that matched.
///
/// `{biginteger}` and `{bigdecimal}` arguments are big numbers, because
/// Swift has no arbitrary-precision type and `Decimal` keeps only 38 digits.
public struct BigNumber: Hashable, Sendable, LosslessStringConvertible {
    /// The number as it was written, such as `+1.5E+3` or `-.5`.
    public var text: String

    /// Creates a big number from text such as `-12`, `.5` or `1.5E+3`.
    ///
    /// Returns `nil` when the text isn't a decimal number.
    public init?(_ text: String) {
        guard Self.isDecimalNumber(text) else { return nil }
        self.text = text
    }

    /// The number as written.
    public var description: String { text }

    /// The number as a `Decimal`, rounded to the 38 digits it can hold.
    public var decimalValue: Decimal {
        Decimal(string: jsonText) ?? .nan
    }

    /// The number as a JSON number: no leading `+`, a `0` before a leading
    /// `.`, no leading zeros.
    public var jsonText: String {
        var rest = Substring(text)
        var sign = ""
        if let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            rest = rest.dropFirst()
        }
        var integer = rest.prefix(while: \.isNumber)
        rest = rest.dropFirst(integer.count)
        integer = integer.drop { $0 == "0" }
        return sign + (integer.isEmpty ? "0" : String(integer)) + rest
    }

    /// Whether text reads `[+-]digits[.digits][E[+-]digits]`, with at least
    /// one digit before the exponent.
    private static func isDecimalNumber(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        func skipSign() {
            if let first = scalars.first, first == "+" || first == "-" { scalars.removeFirst() }
        }
        func digitCount() -> Int {
            let count = scalars.prefix { ("0"..."9").contains($0) }.count
            scalars.removeFirst(count)
            return count
        }
        skipSign()
        var mantissaDigits = digitCount()
        if scalars.first == "." {
            scalars.removeFirst()
            let fraction = digitCount()
            guard fraction > 0 else { return false }
            mantissaDigits += fraction
        }
        guard mantissaDigits > 0 else { return false }
        if let first = scalars.first, first == "e" || first == "E" {
            scalars.removeFirst()
            skipSign()
            guard digitCount() > 0 else { return false }
        }
        return scalars.isEmpty
    }
}
