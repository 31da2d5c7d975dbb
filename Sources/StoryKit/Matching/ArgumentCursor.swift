/// Hands a step closure's parameters their converted inputs, one by one.
struct ArgumentCursor {
    private let inputs: [StepArgumentInput]
    private let site: ArgumentSite
    private var index = 0

    init(inputs: [StepArgumentInput], site: ArgumentSite) {
        self.inputs = inputs
        self.site = site
    }

    /// Converts the next input to `type`.
    /// - Throws: ``ArgumentConversionError`` when it does not convert.
    mutating func next<T: StepArgument>(_ type: T.Type) throws -> T {
        defer { index += 1 }
        let input: StepArgumentInput =
            if T.takesAttachment, let last = inputs.last, case .attachment = last { last }
            else if index < inputs.count { inputs[index] }
            else { .text(nil) }
        if let value = T.convert(input) { return value }
        throw ArgumentConversionError(
            position: index + 1, text: input.text, typeName: T.stepArgumentName,
            takesAttachment: T.takesAttachment, site: site, validValues: T.stepArgumentValues)
    }
}

extension String {
    /// The word with `a` or `an` before it.
    var withIndefiniteArticle: String {
        guard let first = first?.lowercased() else { return self }
        return ("aeiou".contains(first) ? "an " : "a ") + self
    }
}
