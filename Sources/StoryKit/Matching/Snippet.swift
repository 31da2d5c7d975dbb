/// A ready-to-paste step definition for a step no definition matches.
///
/// Numbers and quoted strings (`"…"` or `'…'`) in the step become typed
/// parameters, so steps of the same shape share one snippet; a number
/// joined to others by `-`, `/` or `:` (`4111-1111`, `2024-05-01`) stays
/// text. A number with a decimal comma and two decimals (`10,50`, money
/// in many locales) is one parameter, taken as text, with a comment that
/// says how to read it. Numbers take the types the project's own steps
/// take (``Numbers``). The closure names the project's step class and
/// takes the step's `DataTable` or `DocString` last, so the snippet
/// compiles as pasted.
struct Snippet: Hashable {
    /// How a snippet writes its pattern.
    enum Style: String, Sendable, Codable, CaseIterable {
        /// An anchored regex: `step(#"^I add (-?\d+) apples$"#)`.
        case regex
        /// A Cucumber Expression: `step.expression("I add {int} apples")`.
        case expression
    }

    /// The pattern, in the snippet's style.
    let pattern: String
    /// The parameter types, in order.
    let parameterTypes: [String]
    /// The step class the closure takes first.
    let stepClass: String
    /// The block written under the step, which the closure takes last.
    let attachmentType: String?
    let style: Style
    /// Whether the step is an `As` line (Simon's role line).
    let isRole: Bool
    /// The parameters (0-based) that hold a number with a decimal comma.
    let commaDecimals: [Int]

    init(for step: Step, stepClass: String = "YourSteps", style: Style = .regex, numbers: Numbers = .standard) {
        var pattern = style == .regex ? "^" : ""
        var types: [String] = []
        var commaDecimals: [Int] = []
        var scanner = Substring(step.text)
        var previous: Character?
        while let first = scanner.first {
            if first == "\"" || first == "'", previous.map({ !$0.isLetter && !$0.isNumber }) ?? true,
                let end = scanner.dropFirst().firstIndex(of: first)
            {
                pattern += style == .regex ? "\(first)([^\(first)]*)\(first)" : "{string}"
                types.append("String")
                scanner = scanner[scanner.index(after: end)...]
                previous = first
            } else if !Self.joinsWord(previous), let number = Self.number(at: scanner, commaDecimal: previous != ",") {
                if number.contains(",") {
                    // One number with a decimal comma: its text, which
                    // neither a Double nor a Decimal reads as it is.
                    pattern += style == .regex ? "(-?\\d+,\\d+)" : "{}"
                    commaDecimals.append(types.count)
                    types.append("String")
                } else {
                    let isDecimal = number.contains(".")
                    pattern += style == .regex ? (isDecimal ? "(-?\\d*\\.?\\d+)" : "(-?\\d+)") : (isDecimal ? "{float}" : "{int}")
                    types.append(isDecimal ? numbers.decimal : numbers.integer)
                }
                scanner = scanner.dropFirst(number.count)
                previous = number.last
            } else {
                pattern += style == .regex ? Self.escaped(first) : Self.expressionEscaped(first)
                scanner = scanner.dropFirst()
                previous = first
            }
        }
        self.pattern = pattern + (style == .regex ? "$" : "")
        parameterTypes = types
        self.commaDecimals = commaDecimals
        self.stepClass = stepClass
        self.style = style
        isRole = step.kind == .role
        attachmentType =
            switch step.attachment {
            case .dataTable: "DataTable"
            case .docString: "DocString"
            case nil: nil
            }
    }

    /// The Swift code to paste into the step class's `define(_:)`.
    func code() -> String {
        var parameters = ["steps: \(stepClass)"] + parameterTypes.enumerated().map { index, type in
            "\(type.lowercased())\(index + 1): \(type)"
        }
        if attachmentType == "DataTable" { parameters.append("table: DataTable") }
        if attachmentType == "DocString" { parameters.append("docString: DocString") }
        let call = style == .regex ? "step(#\"\(pattern)\"#)" : "step.expression(\(Self.swiftString(pattern)))"
        let role =
            isRole
            ? "// Every line of a story is a step, `As` lines too (Simon's rule): define\n// this one, or accept every `As` line at once with step.acceptsRoles().\n"
            : ""
        let commas = commaDecimals.map { index in
            let name = "\(parameterTypes[index].lowercased())\(index + 1)"
            return "    // \(name) is one number written with a decimal comma (10,50), taken as text; read it with\n"
                + "    // Decimal(string: \(name).replacingOccurrences(of: \",\", with: \".\"))\n"
        }.joined()
        return role + """
            \(call) { (\(parameters.joined(separator: ", "))) in
            \(commas)    try pending("not written yet")
            }
            """
    }

    /// Whether a character joins the number after it to a word or another
    /// number (`4111-1111`, `v2`, `12:30`), so the number stays text.
    private static func joinsWord(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || "-/:._".contains(character)
    }

    /// The number at the start of the text, when one stands there as a word;
    /// with `commaDecimal`, `10,50` is one number (not after a comma: in
    /// `1,50,70` it is a list).
    private static func number(at text: Substring, commaDecimal: Bool) -> Substring? {
        var end = text.startIndex
        if text.first == "-" { end = text.index(after: end) }
        let digitsStart = end
        while end < text.endIndex, text[end].isASCII, text[end].isNumber { end = text.index(after: end) }
        guard end > digitsStart else { return nil }
        if end < text.endIndex, text[end] == ".", text.index(after: end) < text.endIndex,
            text[text.index(after: end)].isASCII, text[text.index(after: end)].isNumber
        {
            end = text.index(after: end)
            while end < text.endIndex, text[end].isASCII, text[end].isNumber { end = text.index(after: end) }
        }
        if commaDecimal, end < text.endIndex, text[end] == ",", let commaEnd = twoDecimals(in: text, after: end) { end = commaEnd }
        if end < text.endIndex, text[end].isLetter { return nil }
        // Joined to more digits by - / : (a card number, a date, a time).
        if end < text.endIndex, "-/:".contains(text[end]), text.index(after: end) < text.endIndex,
            text[text.index(after: end)].isNumber
        {
            return nil
        }
        return text[..<end]
    }

    /// The end of exactly two digits after the comma at `comma` (`10,50`),
    /// with no other digit or decimal comma after them (`1,000` and
    /// `1,5,7` are not money); nil otherwise.
    private static func twoDecimals(in text: Substring, after comma: Substring.Index) -> Substring.Index? {
        var end = text.index(after: comma)
        for _ in 0..<2 {
            guard end < text.endIndex, text[end].isASCII, text[end].isNumber else { return nil }
            end = text.index(after: end)
        }
        guard end == text.endIndex || !(text[end].isNumber || text[end].isLetter) else { return nil }
        let rest = text[end...]
        if rest.first == ",", rest.dropFirst().first?.isNumber == true { return nil }
        return end
    }

    private static func escaped(_ character: Character) -> String {
        "\\^$.|?*+()[]{}".contains(character) ? "\\\(character)" : String(character)
    }

    /// A character as a Cucumber Expression writes it literally.
    private static func expressionEscaped(_ character: Character) -> String {
        "(){}/\\".contains(character) ? "\\\(character)" : String(character)
    }

    /// Text as a Swift string literal: raw (`#"…"#`) when it holds a
    /// backslash or a quote.
    private static func swiftString(_ text: String) -> String {
        text.contains("\\") || text.contains("\"") ? "#\"\(text)\"#" : "\"\(text)\""
    }
}

extension Snippet {
    /// The step class a snippet for the step should name: the only one the
    /// project has, or else the one whose definitions share the most words
    /// with the step (the first registered on a tie).
    static func stepClass(for step: Step, in registry: StepRegistry) -> String {
        let advice = registry.undefinedStepAdvice.value
        guard advice.owners.count > 1 else { return advice.owners.first ?? "YourSteps" }
        let words = Set(Self.words(step.text))
        var best: (owner: String, score: Int)?
        for definition in advice.words {
            let score = definition.words.intersection(words).count
            if score > (best?.score ?? 0) { best = (definition.owner, score) }
        }
        return best?.owner ?? advice.owners[0]
    }

    /// The words of a text that may tell step classes apart.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter }.map(String.init).filter { $0.count > 2 && !commonWords.contains($0) }
    }

    /// Words every step class uses, which say nothing about which one a step belongs in.
    private static let commonWords: Set<String> = ["the", "and", "for", "with", "from", "into", "that", "this", "are", "has", "have", "not"]
}
