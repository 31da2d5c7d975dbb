/// A ready-to-paste step definition for a step no definition matches.
///
/// Numbers and quoted strings in the step become capture groups with typed
/// parameters, so steps of the same shape share one snippet.
struct Snippet: Hashable {
    /// The anchored regex pattern.
    let pattern: String
    /// The parameter types, in order.
    let parameterTypes: [String]

    init(for step: Step) {
        var pattern = "^"
        var types: [String] = []
        var scanner = Substring(step.text)
        while let first = scanner.first {
            if first == "\"", let end = scanner.dropFirst().firstIndex(of: "\"") {
                pattern += "\"([^\"]*)\""
                types.append("String")
                scanner = scanner[scanner.index(after: end)...]
            } else if let number = Self.number(at: scanner) {
                pattern += number.contains(".") ? "(-?\\d*\\.?\\d+)" : "(-?\\d+)"
                types.append(number.contains(".") ? "Double" : "Int")
                scanner = scanner.dropFirst(number.count)
            } else {
                pattern += Self.escaped(first)
                scanner = scanner.dropFirst()
            }
        }
        self.pattern = pattern + "$"
        parameterTypes = types
    }

    /// The Swift code to paste into a step class's `define(_:)`.
    /// - Parameters:
    ///   - stepClass: The step class's name, the closure's first parameter.
    ///   - attachment: The block written under the step, if any: the
    ///     closure then takes a `DataTable` or `DocString` last.
    func code(stepClass: String = "YourSteps", attachment: StepAttachment? = nil) -> String {
        var parameters = ["steps: \(stepClass)"] + parameterTypes.enumerated().map { index, type in
            "\(type.lowercased())\(index + 1): \(type)"
        }
        switch attachment {
        case .dataTable: parameters.append("table: DataTable")
        case .docString: parameters.append("docString: DocString")
        case nil: break
        }
        return """
            step(#"\(pattern)"#) { (\(parameters.joined(separator: ", "))) in
                try fail("not written yet")
            }
            """
    }

    /// The number at the start of the text, when one stands there as a word.
    private static func number(at text: Substring) -> Substring? {
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
        if end < text.endIndex, text[end].isLetter { return nil }
        return text[..<end]
    }

    private static func escaped(_ character: Character) -> String {
        "\\^$.|?*+()[]{}".contains(character) ? "\\\(character)" : String(character)
    }
}
