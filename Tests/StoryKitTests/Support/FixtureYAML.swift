import Foundation

/// Reads the small part of YAML that the official Cucumber Expressions and
/// tag-expressions test data is written in, so the tests read those files where
/// they live, with no converter and no dependency: block mappings and
/// sequences (a sequence item may open a mapping), plain, single- and
/// double-quoted scalars (plain ones typed as YAML 1.1 does: null, booleans,
/// integers, floats), flow sequences of scalars, and `|`/`|-` block scalars.
/// Anything else is an error naming the line.
struct FixtureYAML {
    struct Failure: Error, CustomStringConvertible {
        var line: Int
        var problem: String
        var description: String { "line \(line): \(problem)" }
    }

    private var lines: [(indent: Int, text: Substring)]
    private var index = 0

    /// Parses one document (an optional `---` line first).
    static func parse(_ text: String) throws -> FixtureJSON {
        var reader = FixtureYAML(text: text)
        reader.skipBlank()
        if reader.index < reader.lines.count, reader.lines[reader.index].text == "---" { reader.index += 1 }
        reader.skipBlank()
        guard reader.index < reader.lines.count else { return .null }
        let value = try reader.node(indent: reader.lines[reader.index].indent)
        reader.skipBlank()
        if reader.index < reader.lines.count { throw Failure(line: reader.index + 1, problem: "unexpected text") }
        return value
    }

    private init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { raw in
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let indent = line.prefix { $0 == " " }.count
            return (indent, line.dropFirst(indent))
        }
    }

    private mutating func skipBlank() {
        while index < lines.count, lines[index].text.isEmpty || lines[index].text.hasPrefix("#") { index += 1 }
    }

    private static func isItem(_ text: Substring) -> Bool { text == "-" || text.hasPrefix("- ") }

    /// The block node whose first line is the next one, at `indent`.
    private mutating func node(indent: Int) throws -> FixtureJSON {
        Self.isItem(lines[index].text) ? try sequence(indent: indent) : try mapping(indent: indent)
    }

    private mutating func sequence(indent: Int) throws -> FixtureJSON {
        var items: [FixtureJSON] = []
        while true {
            skipBlank()
            guard index < lines.count, lines[index].indent == indent, Self.isItem(lines[index].text) else { break }
            let rest = lines[index].text.dropFirst().drop { $0 == " " }
            let offset = lines[index].text.count - rest.count
            if rest.isEmpty {
                index += 1
                items.append(try nested(deeperThan: indent, orItemsAt: nil))
            } else if Self.keyAndValue(rest) != nil {
                lines[index] = (indent + offset, rest)  // "- key: value" opens a mapping at the key's column
                items.append(try mapping(indent: indent + offset))
            } else {
                items.append(try Self.scalar(rest, line: index + 1))
                index += 1
            }
        }
        return .array(items)
    }

    private mutating func mapping(indent: Int) throws -> FixtureJSON {
        var object: [String: FixtureJSON] = [:]
        while true {
            skipBlank()
            guard index < lines.count, lines[index].indent == indent, !Self.isItem(lines[index].text) else { break }
            guard let (key, value) = Self.keyAndValue(lines[index].text) else {
                throw Failure(line: index + 1, problem: "expected 'key: value'")
            }
            let line = index + 1
            index += 1
            if value.isEmpty {
                object[key] = try nested(deeperThan: indent, orItemsAt: indent)
            } else if value == "|" || value == "|-" {
                object[key] = .string(blockScalar(deeperThan: indent, keepNewline: value == "|"))
            } else {
                object[key] = try Self.scalar(value, line: line)
            }
        }
        if index < lines.count, lines[index].indent > indent, !lines[index].text.isEmpty {
            throw Failure(line: index + 1, problem: "unexpected indentation")
        }
        return .object(object)
    }

    /// The node under a key or an empty item: more indented, or (under a key)
    /// a sequence at the key's own indentation; null when there is none.
    private mutating func nested(deeperThan indent: Int, orItemsAt itemIndent: Int?) throws -> FixtureJSON {
        skipBlank()
        guard index < lines.count else { return .null }
        let next = lines[index]
        if next.indent > indent { return try node(indent: next.indent) }
        if next.indent == itemIndent, Self.isItem(next.text) { return try sequence(indent: next.indent) }
        return .null
    }

    private mutating func blockScalar(deeperThan indent: Int, keepNewline: Bool) -> String {
        var body: [Substring] = []
        var contentIndent: Int?
        while index < lines.count {
            let (lineIndent, text) = lines[index]
            if text.isEmpty {
                body.append("")
            } else if lineIndent > indent {
                let column = contentIndent ?? lineIndent
                contentIndent = column
                body.append(Substring(String(repeating: " ", count: max(0, lineIndent - column))) + text)
            } else {
                break
            }
            index += 1
        }
        while body.last == "" { body.removeLast() }
        return body.joined(separator: "\n") + (keepNewline ? "\n" : "")
    }

    /// Splits `key: value` (or `key:`) outside quotes; nil when the text is no key.
    private static func keyAndValue(_ text: Substring) -> (String, Substring)? {
        guard let first = text.first, first != "\"", first != "'", first != "[" else { return nil }
        if text.hasSuffix(":") { return (String(text.dropLast()), "") }
        guard let colon = text.range(of: ": ") else { return nil }
        return (String(text[..<colon.lowerBound]), text[colon.upperBound...].drop { $0 == " " })
    }

    private static func scalar(_ raw: Substring, line: Int) throws -> FixtureJSON {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\"") { return .string(try doubleQuoted(Substring(text), line: line)) }
        if text.hasPrefix("'") { return .string(try singleQuoted(Substring(text), line: line)) }
        if text.hasPrefix("[") { return try flowSequence(Substring(text), line: line) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if let integer = Int64(text) { return .int(integer) }
        if text.range(of: #"^[-+]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][-+]?[0-9]+)?$"#, options: .regularExpression) != nil,
            let double = Double(text)
        {
            return .double(double)
        }
        return .string(text)
    }

    private static func singleQuoted(_ text: Substring, line: Int) throws -> String {
        guard text.count >= 2, text.hasSuffix("'") else { throw Failure(line: line, problem: "unterminated quote") }
        return text.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'")
    }

    private static func doubleQuoted(_ text: Substring, line: Int) throws -> String {
        guard text.count >= 2, text.hasSuffix("\"") else { throw Failure(line: line, problem: "unterminated quote") }
        var result = ""
        var characters = text.dropFirst().dropLast().makeIterator()
        while let character = characters.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            guard let escaped = characters.next() else { throw Failure(line: line, problem: "a lone backslash") }
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "e": result.append("\u{1B}")
            case "x", "u", "U":
                let width = escaped == "x" ? 2 : escaped == "u" ? 4 : 8
                let digits = String((0..<width).compactMap { _ in characters.next() })
                guard let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw Failure(line: line, problem: "a bad \\\(escaped) escape")
                }
                result.unicodeScalars.append(scalar)
            default: result.append(escaped)  // \\ \" \/ and an escaped space
            }
        }
        return result
    }

    private static func flowSequence(_ text: Substring, line: Int) throws -> FixtureJSON {
        guard text.hasSuffix("]") else { throw Failure(line: line, problem: "unterminated flow sequence") }
        var items: [FixtureJSON] = []
        var current = ""
        var quote: Character?
        for character in text.dropFirst().dropLast() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "," {
                items.append(try scalar(Substring(current), line: line))
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty || !items.isEmpty {
            items.append(try scalar(Substring(current), line: line))
        }
        return .array(items)
    }
}
