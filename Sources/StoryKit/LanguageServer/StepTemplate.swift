/// A step definition's pattern as text an editor can insert: literal text
/// kept, each regex capture group or `{parameter}` made a snippet
/// placeholder (`${1:Int}`), optional parts and other alternatives dropped.
struct StepTemplate: Equatable {
    /// The text with placeholders shown as `{Int}`, for the completion list.
    var label: String
    /// The text in LSP snippet syntax.
    var snippet: String

    /// Makes the template of a definition.
    init(_ definition: StepDefinition) {
        self.init(pattern: definition.pattern, syntax: definition.syntax, parameterNames: definition.parameterNames)
    }

    /// Makes the template of a pattern whose parameters have these type names.
    init(pattern: String, syntax: StepDefinition.Syntax, parameterNames: [String]) {
        var builder = Builder(names: parameterNames)
        switch syntax {
        case .regex: builder.readRegex(Array(pattern))
        case .expression: builder.readExpression(Array(pattern))
        }
        var label = builder.label.trimmingCharacters(in: .whitespaces)
        var snippet = builder.snippet.trimmingCharacters(in: .whitespaces)
        // A Simon pattern may include the keyword, which the line already has.
        let first = label.prefix { !$0.isWhitespace }
        if StepKeyword(first) != nil, first.count < label.count {
            label = label.dropFirst(first.count).trimmingCharacters(in: .whitespaces)
            snippet = snippet.dropFirst(first.count).trimmingCharacters(in: .whitespaces)
        }
        self.label = label
        self.snippet = snippet
    }

    private struct Builder {
        let names: [String]
        var label = ""
        var snippet = ""
        var placeholder = 0

        init(names: [String]) {
            self.names = names
        }

        mutating func literal(_ character: Character) {
            label.append(character)
            snippet += "$}\\".contains(character) ? "\\\(character)" : String(character)
        }

        mutating func parameter(_ fallback: String) {
            placeholder += 1
            let name = placeholder <= names.count ? names[placeholder - 1] : fallback
            label += "{\(name)}"
            snippet += "${\(placeholder):\(name)}"
        }

        /// Reads a regex: literal text and capture groups.
        mutating func readRegex(_ pattern: [Character]) {
            var index = 0
            if pattern.first == "^" { index = 1 }
            // A leading `.*` matches the keyword (Simon's patterns).
            if index + 1 < pattern.count, pattern[index] == ".", "*+".contains(pattern[index + 1]) { index += 2 }
            while index < pattern.count {
                let character = pattern[index]
                switch character {
                case "\\":
                    index += 1
                    guard index < pattern.count else { return }
                    let escaped = pattern[index]
                    if "dDwWS".contains(escaped) { parameter("text") } else if escaped == "s" { literal(" ") } else { literal(escaped) }
                    index = Self.skipQuantifier(pattern, index + 1)
                    continue
                case "(":
                    let end = Self.closing(pattern, from: index)
                    let inner = Array(pattern[(index + 1)..<end])
                    let after = end + 1
                    let isOptional = after < pattern.count && "?*".contains(pattern[after])
                    if inner.starts(with: ["?", ":"]) {
                        if !isOptional {
                            let first = Self.firstAlternative(Array(inner.dropFirst(2)))
                            var nested = Builder(names: [])
                            nested.readRegex(first)
                            label += nested.label
                            snippet += nested.snippet
                        }
                    } else if inner.first == "?" {
                        // A lookaround or named group option: nothing to insert.
                    } else {
                        parameter("text")
                    }
                    index = Self.skipQuantifier(pattern, after)
                    continue
                case "[":
                    var end = index + 1
                    while end < pattern.count, pattern[end] != "]" { end += pattern[end] == "\\" ? 2 : 1 }
                    parameter("text")
                    index = Self.skipQuantifier(pattern, end + 1)
                    continue
                case "$" where index == pattern.count - 1: break
                case "|": return
                case ".":
                    parameter("text")
                    index = Self.skipQuantifier(pattern, index + 1)
                    continue
                case "?", "*":
                    // The character before was optional: leave it out.
                    if let last = label.popLast() {
                        snippet.removeLast("$}\\".contains(last) ? 2 : 1)
                    }
                case "+", "{": break
                default: literal(character)
                }
                index += 1
            }
        }

        /// Reads a Cucumber Expression: literal text and `{parameters}`.
        mutating func readExpression(_ expression: [Character]) {
            var index = 0
            while index < expression.count {
                let character = expression[index]
                switch character {
                case "\\":
                    if index + 1 < expression.count { literal(expression[index + 1]) }
                    index += 2
                    continue
                case "{":
                    var end = index + 1
                    while end < expression.count, expression[end] != "}" { end += 1 }
                    parameter(String(expression[(index + 1)..<min(end, expression.count)]))
                    index = end + 1
                    continue
                case "(":
                    var end = index + 1
                    while end < expression.count, expression[end] != ")" { end += expression[end] == "\\" ? 2 : 1 }
                    index = end + 1
                    continue
                case "/":
                    // Alternatives: the first one is kept.
                    var end = index + 1
                    while end < expression.count, expression[end] != " " { end += 1 }
                    index = end
                    continue
                default: literal(character)
                }
                index += 1
            }
        }

        private static func closing(_ pattern: [Character], from open: Int) -> Int {
            var depth = 0
            var index = open
            while index < pattern.count {
                switch pattern[index] {
                case "\\": index += 1
                case "(": depth += 1
                case ")":
                    depth -= 1
                    if depth == 0 { return index }
                default: break
                }
                index += 1
            }
            return pattern.count - 1
        }

        private static func skipQuantifier(_ pattern: [Character], _ index: Int) -> Int {
            var index = index
            if index < pattern.count, "?*+".contains(pattern[index]) {
                index += 1
                if index < pattern.count, "?+".contains(pattern[index]) { index += 1 }
            } else if index < pattern.count, pattern[index] == "{" {
                while index < pattern.count, pattern[index] != "}" { index += 1 }
                index += 1
            }
            return index
        }

        private static func firstAlternative(_ pattern: [Character]) -> [Character] {
            var depth = 0
            var index = 0
            while index < pattern.count {
                switch pattern[index] {
                case "\\": index += 1
                case "(": depth += 1
                case ")": depth -= 1
                case "|" where depth == 0: return Array(pattern[..<index])
                default: break
                }
                index += 1
            }
            return pattern
        }
    }
}
