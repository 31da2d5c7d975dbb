/// Reading a number as RFC 8259 writes it,
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`: one whose text
/// denotes a whole number within a signed 64-bit integer (`7`, `7.0`,
/// `7e0`, `9.007199254740993e15`) is read exactly, from its digits, as an
/// ``JSONValue/int(_:)``; any other as the nearest double. Text outside
/// the grammar (`01`, `1.`, `.5`) and a number too large for a double
/// (`1e400`) are syntax errors at the number's place.
extension JSONReader {
    /// The number that starts here.
    mutating func jsonNumber() throws(JSONValue.SyntaxError) -> JSONValue {
        let start = index
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        if let short = shortInteger(from: start) { return .int(short) }
        guard let number = JSONNumberText(bytes, start..<index) else {
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            index = start
            throw error("\(text) is not a JSON number (JSON writes no leading zero, and digits after a point and in an exponent)")
        }
        if let whole = number.wholeValue(bytes) { return .int(whole) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            index = start
            throw error("\(text) is too large a number (beyond a 64-bit double)")
        }
        return .double(double)
    }

    /// Up to 18 digits, with an optional minus and no leading zero: the
    /// common case, read without a second pass.
    private func shortInteger(from start: Int) -> Int64? {
        let negative = bytes[start] == UInt8(ascii: "-")
        let digitsStart = negative ? start + 1 : start
        let count = index - digitsStart
        guard count > 0, count <= 18, count == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
        var value: Int64 = 0
        for position in digitsStart..<index {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
        }
        return negative ? -value : value
    }
}

/// The parts of a number's text that RFC 8259's grammar allows.
struct JSONNumberText {
    var negative = false
    /// The digits before the point, and after it (empty without one).
    var integer: Range<Int>
    var fraction: Range<Int>
    /// The exponent's value, held within ±10^9 (a text that long to make
    /// up for it is not a number anyone writes).
    var exponent = 0

    /// The parts of `bytes[range]`, or nil when the text is outside the grammar.
    init?(_ bytes: [UInt8], _ range: Range<Int>) {
        var position = range.lowerBound
        func digits() -> Range<Int> {
            let start = position
            while position < range.upperBound, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            return start..<position
        }
        func next(_ byte: Character) -> Bool {
            guard position < range.upperBound, bytes[position] == byte.asciiValue else { return false }
            position += 1
            return true
        }
        negative = next("-")
        integer = digits()
        guard integer.count == 1 || (integer.count > 1 && bytes[integer.lowerBound] != UInt8(ascii: "0")) else { return nil }
        fraction = position..<position
        if next(".") {
            fraction = digits()
            guard !fraction.isEmpty else { return nil }
        }
        if next("e") || next("E") {
            let negativeExponent = next("-")
            if !negativeExponent { _ = next("+") }
            let written = digits()
            guard !written.isEmpty else { return nil }
            for position in written { exponent = min(exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")), 1_000_000_000) }
            if negativeExponent { exponent = -exponent }
        }
        guard position == range.upperBound else { return nil }
    }

    /// The whole number the text denotes, computed from its digits, when
    /// it is one and a signed 64-bit integer holds it.
    func wholeValue(_ bytes: [UInt8]) -> Int64? {
        var digits = ArraySlice(Array(bytes[integer]) + Array(bytes[fraction]))
        var scale = exponent - fraction.count
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        if digits.isEmpty { return 0 }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            scale += 1
        }
        // At most 19 digits in all: below 10^19, so a UInt64 holds it.
        guard scale >= 0, digits.count + scale <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in digits { magnitude = magnitude * 10 + UInt64(digit - UInt8(ascii: "0")) }
        for _ in 0..<scale { magnitude *= 10 }
        if negative { return magnitude <= 1 << 63 ? Int64(bitPattern: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }
}
