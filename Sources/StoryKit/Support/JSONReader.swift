/// The byte reader under ``JSONValue(parsing:)``: where it is in the text
/// (byte, line and column, for a ``JSONValue/SyntaxError``'s place) and
/// the parts of the grammar below a value — space, words, strings. Asked
/// to, it notes where each value and key was written (``JSONPlaces``, for
/// a config file's messages).
struct JSONReader {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    /// Where each value and key was written, when the caller asked for them.
    var places: JSONPlaces?
    /// The path (``JSONPlaces/Path``) of the value being read, kept while
    /// ``places`` are noted.
    var path: JSONPlaces.Path = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var column: Int { index - lineStart + 1 }

    func error(_ problem: String) -> JSONValue.SyntaxError {
        JSONValue.SyntaxError(line: line, column: column, problem: problem)
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

    /// A byte a number can hold: a digit, a sign, a point or an exponent.
    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    mutating func word(_ expected: String) throws(JSONValue.SyntaxError) {
        guard bytes[index...].starts(with: expected.utf8) else { throw error("a value should be here (did you mean \(expected)?)") }
        index += expected.utf8.count
    }

    /// Reads a string from its opening quote to its closing one.
    mutating func string() throws(JSONValue.SyntaxError) -> String {
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
