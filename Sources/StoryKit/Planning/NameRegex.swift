import Foundation

/// The regex of `--name`, searched for in story names, case-insensitively.
struct NameRegex: @unchecked Sendable {
    // Unchecked: an NSRegularExpression is immutable once made, and safe to
    // use from several threads.
    private let regex: NSRegularExpression

    /// Compiles the pattern.
    /// - Throws: A usage ``Diagnostic`` that shows the pattern with a caret
    ///   under the first place it stops being a regex.
    init(_ pattern: String) throws(Diagnostic) {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            let column = Self.errorOffset(in: pattern)
            let shown = "--name \(pattern)"
            let caret = String(repeating: " ", count: "--name ".count + column) + "^"
            throw Diagnostic(
                at: nil, problem: "--name \"\(pattern)\" is not a regular expression",
                help: "escape ( ) [ ] { } * + ? . \\ | ^ $ with a \\ to match them as text, e.g. --name \"price \\\\(EUR\\\\)\"",
                sourceLine: shown + "\n    " + caret)
        }
        self.regex = regex
    }

    /// Whether the regex is found in the text.
    func hasMatch(in text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Where a pattern that does not compile goes wrong: the end of the
    /// shortest prefix that does not compile even with its open groups and
    /// classes closed; the end of the pattern when every prefix would.
    static func errorOffset(in pattern: String) -> Int {
        let characters = Array(pattern)
        var depth = 0
        var isInClass = false
        var isEscaped = false
        for (index, character) in characters.enumerated() {
            if isEscaped {
                isEscaped = false
            } else if character == "\\" {
                isEscaped = true
            } else if isInClass {
                if character == "]" { isInClass = false }
            } else if character == "[" {
                isInClass = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            }
            var prefix = String(characters[...index])
            if isEscaped { prefix += "\\" }
            if isInClass { prefix += prefix.hasSuffix("[") || prefix.hasSuffix("[^") ? "x]" : "]" }
            prefix += String(repeating: ")", count: max(depth, 0))
            if (try? NSRegularExpression(pattern: prefix)) == nil { return index }
        }
        return characters.count
    }
}
