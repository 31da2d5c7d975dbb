/// A JSON value with the line and column each value (and each object key)
/// starts at, so that a configuration file's problems can name their place.
///
/// Foundation's `JSONSerialization` parses JSON but forgets where each value
/// was; this small reader keeps it (RFC 8259, no extensions).
indirect enum LocatedJSON: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([Element])
    /// Members in the order written, each key with its own place.
    case object([Member])

    /// A value and where it starts.
    struct Element: Equatable {
        var value: LocatedJSON
        var line: Int
        var column: Int
    }

    /// An object member: its key, where the key starts, and its value.
    struct Member: Equatable {
        var key: String
        var line: Int
        var column: Int
        var value: Element
    }

    /// A place in the text where it is not JSON, and why.
    typealias SyntaxError = JSONValue.SyntaxError

    /// What the value is, for messages: "a string", "an object"…
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Parses a whole document.
    /// - Throws: A ``SyntaxError`` at the first place that is not JSON.
    static func parse(_ text: String) throws(SyntaxError) -> Element {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipSpace()
        let element = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("more text after the end of the JSON value") }
        return element
    }

    /// The byte reader under both ``LocatedJSON`` and ``JSONValue(parsing:)``.
    struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0

        var column: Int { index - lineStart + 1 }

        func error(_ problem: String) -> SyntaxError {
            SyntaxError(line: line, column: column, problem: problem)
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\n"):
                    index += 1
                    line += 1
                    lineStart = index
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> Element {
            guard depth < 200 else { throw error("nested more than 200 deep") }
            let (startLine, startColumn) = (line, column)
            func element(_ value: LocatedJSON) -> Element { Element(value: value, line: startLine, column: startColumn) }
            guard index < bytes.count else { throw error("the text ends where a value should be") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [Member] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return element(.object([]))
                }
                while true {
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw error("JSON allows no comma before the }") }
                    let (keyLine, keyColumn) = (line, column)
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw error("a key in double quotes should be here")
                    }
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("a colon should follow the key \"\(key)\"") }
                    index += 1
                    skipSpace()
                    members.append(Member(key: key, line: keyLine, column: keyColumn, value: try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw error("the text ends inside an object (a } is missing)") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return element(.object(members)) }
                    throw error("a comma or } should be here")
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [Element] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return element(.array([]))
                }
                while true {
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("JSON allows no comma before the ]") }
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("the text ends inside a list (a ] is missing)") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return element(.array(elements)) }
                    throw error("a comma or ] should be here")
                }
            case UInt8(ascii: "\""):
                return element(.string(try string()))
            case UInt8(ascii: "t"): try word("true"); return element(.bool(true))
            case UInt8(ascii: "f"): try word("false"); return element(.bool(false))
            case UInt8(ascii: "n"): try word("null"); return element(.null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                guard Double(text) != nil else { index = start; throw error("\(text) is not a number") }
                return element(.number(text))
            default:
                throw error("a value (a string in double quotes, a number, true, false, a list or an object) should be here")
            }
        }

        /// A byte a number can hold: a digit, a sign, a point or an exponent.
        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
            default: false
            }
        }

        mutating func word(_ expected: String) throws(SyntaxError) {
            guard bytes[index...].starts(with: expected.utf8) else { throw error("a value should be here (did you mean \(expected)?)") }
            index += expected.utf8.count
        }

        /// Reads a string from its opening quote to its closing one.
        mutating func string() throws(SyntaxError) -> String {
            index += 1
            // Most strings have no escape: made from their bytes at once.
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: bytes[start..<index - 1], as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                index += 1
            }
            var scalars = String.UnicodeScalarView()
            var pending = Array(bytes[start..<index])
            func flush() {
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                pending.removeAll()
            }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard index + 1 < bytes.count else { throw error("the text ends inside a string") }
                    let escaped = bytes[index + 1]
                    index += 2
                    switch escaped {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                        else { index -= 2; throw error("\\u needs four hexadecimal digits") }
                        index += 4
                        // Surrogate pairs and lone surrogates: as U+FFFD unless paired.
                        if (0xD800...0xDBFF).contains(code), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u"),
                            let low = UInt32(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16),
                            (0xDC00...0xDFFF).contains(low)
                        {
                            index += 6
                            scalars.append(Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}")
                        } else {
                            scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                        }
                    default:
                        index -= 2
                        throw error("\\\(Character(Unicode.Scalar(escaped))) is not an escape JSON knows")
                    }
                case UInt8(ascii: "\n"):
                    throw error("the string has no closing double quote on its line")
                case 0..<0x20:
                    throw error("a control character must be escaped in a string")
                default:
                    pending.append(byte)
                    index += 1
                }
            }
            throw error("the text ends inside a string")
        }
    }
}

extension LocatedJSON {
    /// The value without its places, as the one JSON value type: a number
    /// written as an integer that fits 64 bits is ``JSONValue/int(_:)``,
    /// any other number ``JSONValue/double(_:)``.
    var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let text): Int64(text).map(JSONValue.int) ?? .double(Double(text) ?? 0)
        case .string(let value): .string(value)
        case .array(let elements): .array(elements.map(\.value.json))
        case .object(let members): .object(members.map { ($0.key, $0.value.value.json) })
        }
    }
}
