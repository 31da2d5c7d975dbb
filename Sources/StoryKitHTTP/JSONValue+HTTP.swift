import StoryKit

/// What the HTTP and stub service steps need of StoryKit's one JSON value
/// beyond its public API: a parse error worded for their messages, the
/// value at a path such as `items[0].name`, and the text they print.
extension JSONValue {
    /// Parses JSON text (any value at the top level) with StoryKit's one
    /// JSON reader.
    /// - Throws: ``JSONError`` naming the line and column of the first problem.
    static func parse(_ text: String) throws(JSONError) -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw JSONError(description: "not JSON: \(error.problem) at line \(error.line), column \(error.column)")
        }
    }

    /// The value at a path such as `items[0].name` or `$.id`, or nil (an
    /// object's key with its last value, as ``matches(_:containing:)`` sees it).
    func value(at path: String) -> JSONValue? {
        var current: JSONValue? = self
        var text = path.hasPrefix("$") ? String(path.dropFirst()) : path
        if text.hasPrefix(".") { text.removeFirst() }
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var part = Substring(part)
            let key = part.prefix { $0 != "[" }
            part = part.dropFirst(key.count)
            if !key.isEmpty {
                guard case .object(let members)? = current else { return nil }
                current = members.last { $0.0 == key }?.1
            }
            while part.hasPrefix("["), let close = part.firstIndex(of: "]") {
                guard let index = Int(part[part.index(after: part.startIndex)..<close]),
                    case .array(let items)? = current, items.indices.contains(index)
                else { return nil }
                current = items[index]
                part = part[part.index(after: close)...]
            }
            guard part.isEmpty else { return nil }
        }
        return current
    }

    /// The value as compact JSON, object keys sorted, for messages.
    var sortedText: String { withSortedKeys.text }

    /// The value as plain text for the store: strings without quotes.
    var plainText: String {
        if case .string(let text) = self { return text }
        return sortedText
    }
}

/// Text that is not JSON.
struct JSONError: Error, CustomStringConvertible {
    var description: String
}
