import Foundation

/// A parsed JSON value, compared ignoring the order of object keys.
enum JSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// Parses JSON text (any value at the top level).
    /// - Throws: ``JSONError`` naming the offset of the first problem.
    init(parsing text: String) throws {
        var parser = JSONParser(bytes: Array(text.utf8))
        self = try parser.parseDocument()
    }

    /// Whether every field of `expected` is in this value with an equal value
    /// (objects recursively; arrays must be equal in length, element by element).
    func contains(_ expected: JSON) -> Bool {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            return wanted.allSatisfy { key, value in actual[key].map { $0.contains(value) } ?? false }
        case (.array(let actual), .array(let wanted)):
            return actual.count == wanted.count && zip(actual, wanted).allSatisfy { $0.contains($1) }
        default:
            return self == expected
        }
    }

    /// The value at a path such as `items[0].name` or `$.id`, or nil.
    func value(at path: String) -> JSON? {
        var current: JSON? = self
        var text = path.hasPrefix("$") ? String(path.dropFirst()) : path
        if text.hasPrefix(".") { text.removeFirst() }
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var part = Substring(part)
            var key = part.prefix { $0 != "[" }
            part = part.dropFirst(key.count)
            if !key.isEmpty {
                guard case .object(let fields)? = current else { return nil }
                current = fields[String(key)]
            }
            while part.hasPrefix("["), let close = part.firstIndex(of: "]") {
                guard let index = Int(part[part.index(after: part.startIndex)..<close]),
                    case .array(let items)? = current, items.indices.contains(index)
                else { return nil }
                current = items[index]
                part = part[part.index(after: close)...]
            }
            key = ""
            guard part.isEmpty else { return nil }
        }
        return current
    }

    /// The value as compact JSON, object keys sorted.
    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value):
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): JSON.quoted(value)
        case .array(let items): "[" + items.map(\.description).joined(separator: ",") + "]"
        case .object(let fields):
            "{" + fields.keys.sorted().map { JSON.quoted($0) + ":" + fields[$0]!.description }.joined(separator: ",") + "}"
        }
    }

    /// The value as indented JSON, keys sorted, for diffs.
    func pretty(_ indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { inner + $0.pretty(inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let fields) where !fields.isEmpty:
            return "{\n" + fields.keys.sorted().map { inner + JSON.quoted($0) + ": " + fields[$0]!.pretty(inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        default:
            return description
        }
    }

    /// The value as plain text for the store: strings without quotes.
    var plainText: String {
        if case .string(let text) = self { return text }
        return description
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Text that is not JSON.
struct JSONError: Error, CustomStringConvertible {
    var description: String
}

/// A recursive-descent JSON parser over UTF-8 bytes, at most 512 levels deep.
struct JSONParser {
    let bytes: [UInt8]
    var offset = 0
    var depth = 0

    mutating func parseDocument() throws -> JSON {
        let value = try parseValue()
        skipSpace()
        guard offset == bytes.count else { throw error("unexpected text after the value") }
        return value
    }

    private func error(_ problem: String) -> JSONError {
        JSONError(description: "not JSON: \(problem) at byte \(offset)")
    }

    private mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
    }

    private mutating func parseValue() throws -> JSON {
        skipSpace()
        guard offset < bytes.count else { throw error("unexpected end") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            guard depth < 512 else { throw error("nested too deeply") }
            offset += 1
            var fields: [String: JSON] = [:]
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") { offset += 1; return .object(fields) }
            while true {
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try parseString()
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected :") }
                offset += 1
                fields[key] = try parseValue()
                skipSpace()
                guard offset < bytes.count else { throw error("unexpected end") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                guard bytes[offset] == UInt8(ascii: "}") else { throw error("expected , or }") }
                offset += 1
                return .object(fields)
            }
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            guard depth < 512 else { throw error("nested too deeply") }
            offset += 1
            var items: [JSON] = []
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(items) }
            while true {
                items.append(try parseValue())
                skipSpace()
                guard offset < bytes.count else { throw error("unexpected end") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                guard bytes[offset] == UInt8(ascii: "]") else { throw error("expected , or ]") }
                offset += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        default:
            for (word, value) in [("true", JSON.bool(true)), ("false", .bool(false)), ("null", .null)]
            where bytes[offset...].starts(with: word.utf8) {
                offset += word.utf8.count
                return value
            }
            let start = offset
            while offset < bytes.count, "+-0123456789.eE".utf8.contains(bytes[offset]) { offset += 1 }
            guard let number = Double(String(decoding: bytes[start..<offset], as: UTF8.self)) else {
                offset = start
                throw error("unexpected character")
            }
            return .number(number)
        }
    }

    private mutating func parseString() throws -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run = []
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if byte == UInt8(ascii: "\"") { flush(); return String(scalars) }
            guard byte == UInt8(ascii: "\\") else { run.append(byte); continue }
            flush()
            guard offset < bytes.count else { break }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{c}")
            case UInt8(ascii: "u"):
                guard offset + 4 <= bytes.count, var code = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
                else { throw error("bad \\u escape") }
                offset += 4
                if (0xD800..<0xDC00).contains(code), offset + 6 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                    let low = UInt32(String(decoding: bytes[offset + 2..<offset + 6], as: UTF8.self), radix: 16),
                    (0xDC00..<0xE000).contains(low)
                {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    offset += 6
                }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: scalars.append(Unicode.Scalar(escape))
            }
        }
        throw error("unclosed string")
    }
}
