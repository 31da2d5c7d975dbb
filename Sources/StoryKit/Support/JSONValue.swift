import Foundation

/// A JSON value written in the order it was built, for reports whose shape
/// other tools read.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// An object; its keys keep the order given.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.text == rhs.text
    }

    /// The value as compact JSON text.
    public var text: String {
        var out: [UInt8] = []
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value as compact JSON text in UTF-8 (the bytes of
    /// ``text``, without making a String).
    public func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): Self.writeInteger(value, into: &out)
        case .double(let value):
            let text = value.isFinite ? (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)) : "null"
            out.append(contentsOf: text.utf8)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// An integer in decimal, without making a String.
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        // One append: each byte on its own would check the array's
        // capacity and ownership again (a Messages report writes about
        // twenty numbers per step).
        withDecimal(value) { out.append(contentsOf: $0) }
    }

    /// The most bytes of ``withDecimal(_:_:)``'s text: `-` and 19 digits.
    static var maxDecimalCount: Int { 20 }

    /// Calls `body` with an integer in decimal, in bytes of the stack.
    @inline(__always)
    static func withDecimal<Result>(_ value: Int64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 24 bytes of digits, from the end
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            // Two digits per division, from a table of "00" to "99".
            digitPairs.withUTF8Buffer { pairs in
                while magnitude >= 10 {
                    let pair = Int(magnitude % 100) * 2
                    magnitude /= 100
                    start -= 2
                    buffer[start] = pairs[pair]
                    buffer[start + 1] = pairs[pair + 1]
                }
            }
            // The first digit of an odd number of digits, or the 0 of zero.
            if magnitude > 0 || start == buffer.count {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: magnitude) + 0x30
            }
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            return body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// The decimal digits of 0 to 99, two each.
    private static var digitPairs: StaticString { "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899" }

    /// A string as a quoted, escaped JSON string in UTF-8: the bytes
    /// ``quoted(_:)`` makes.
    static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeEscaped(string, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// ``writeString(_:into:)`` without the quotes: the string's escaped
    /// text, for a JSON string written in parts.
    static func writeEscaped(_ string: String, into out: inout [UInt8]) {
        var string = string
        string.withUTF8 { writeEscaped($0, into: &out) }
    }

    /// ``writeEscaped(_:into:)`` for text already in UTF-8.
    static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var start = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            start = index + 1
            switch byte {
            case 0x22: out.append(contentsOf: "\\\"".utf8)
            case 0x5C: out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0x08: out.append(contentsOf: "\\b".utf8)
            case 0x0C: out.append(contentsOf: "\\f".utf8)
            default:
                // `\u00XX`, lowercase hex (no table made for it: Messages
                // escape the control character of every id marker).
                func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x57 + value }
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    }

    /// A string as a quoted, escaped JSON string.
    public static func quoted(_ string: String) -> String {
        var out: [UInt8] = []
        writeString(string, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONValue {
    /// A string, or null for nil.
    static func optional(_ string: String?) -> JSONValue {
        string.map(JSONValue.string) ?? .null
    }
}
