import Foundation
import StoryKit

/// A parsed JSON value, compared ignoring the order of object keys.
enum JSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// Parses JSON text (any value at the top level) with StoryKit's one
    /// JSON reader.
    /// - Throws: ``JSONError`` naming the line and column of the first problem.
    init(parsing text: String) throws(JSONError) {
        do {
            self = JSON(try JSONValue(parsing: text))
        } catch {
            throw JSONError(description: "not JSON: \(error.problem) at line \(error.line), column \(error.column)")
        }
    }

    /// A parsed value, its objects made unordered.
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .number(Double(value))
        case .double(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(JSON.init))
        case .object(let members):
            self = .object(Dictionary(members.map { ($0.0, JSON($0.1)) }) { _, last in last })
        }
    }

    /// The value for StoryKit's one JSON writer, object keys sorted.
    var sortedValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value): .double(value)
        case .string(let value): .string(value)
        case .array(let items): .array(items.map(\.sortedValue))
        case .object(let fields): .object(fields.keys.sorted().map { ($0, fields[$0]!.sortedValue) })
        }
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
    var description: String { sortedValue.text }

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

    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }
}

/// Text that is not JSON.
struct JSONError: Error, CustomStringConvertible {
    var description: String
}
