extension LanguageServer {
    /// Goes from a step to the Swift file and line of the definition that wins.
    func definition(_ params: JSONValue) -> JSONValue? {
        guard let (document, line, _) = position(params), let winner = document.use(atLine: line)?.result.winner else { return nil }
        return [Self.location(file: winner.definition.location.file, line: winner.definition.location.line)]
    }

    /// Shows the pattern, the step class, the arguments as they will be
    /// converted, and every other definition that also matches.
    func hover(_ params: JSONValue) -> JSONValue? {
        guard let (document, line, _) = position(params), let uses = document.usesByLine[line], let use = uses.first else { return nil }
        var text: [String] = []
        guard let winner = use.result.winner else {
            text.append("**Undefined step**: no step definition matches `\(use.step.line)`.")
            text.append("Define it with this snippet in a step class:")
            text.append("```swift\n\(Snippet(for: use.step, numbers: .used(in: registry)).code())\n```")
            return ["contents": ["kind": "markdown", "value": .string(text.joined(separator: "\n\n"))], "range": document.lineRange(line)]
        }
        let definition = winner.definition
        let syntax = definition.syntax == .regex ? "regex" : "Cucumber Expression"
        text.append("`\(definition.pattern)` (\(syntax))")
        text.append("Step class `\(definition.ownerName)` — \(definition.location.displayFileAndLine)")
        let isOutline = uses.count > 1 && uses.contains { exampleRow(of: $0, in: document) != nil }
        for use in isOutline ? uses : [use] {
            guard let winner = use.result.winner else { continue }
            let prefix = exampleRow(of: use, in: document).map { "Examples row at line \($0): " } ?? "Arguments: "
            switch winner.definition.convertedArguments(winner.inputs, step: use.step) {
            case .success(let values):
                guard !values.isEmpty else { continue }
                let shown = zip(values, winner.definition.parameterNames).enumerated().map { index, pair in
                    let captured = index < winner.capturedTexts.count ? winner.capturedTexts[index].map { "\"\($0)\" → " } ?? "" : ""
                    return "\(captured)`\(Self.describe(pair.0))` as \(pair.1)"
                }
                text.append(prefix + shown.joined(separator: ", "))
            case .failure(let error):
                text.append(prefix + "⚠️ " + Self.conversionMessage(error, definition: nil))
            }
        }
        let others = use.result.matches.dropFirst()
        if !others.isEmpty {
            text.append("Also matches (the first registered wins):\n" + others.map {
                "- `\($0.definition.pattern)` — \($0.definition.ownerName) (\($0.definition.location.displayFileAndLine))"
            }.joined(separator: "\n"))
        }
        return ["contents": ["kind": "markdown", "value": .string(text.joined(separator: "\n\n"))], "range": document.lineRange(line)]
    }

    /// Every story line in the workspace that the same definition runs.
    mutating func references(_ params: JSONValue) -> JSONValue? {
        guard let (document, line, _) = position(params), let winner = document.use(atLine: line)?.result.winner else { return [] }
        let id = winner.definition.id
        var found: [JSONValue] = []
        var seen: Set<String> = []
        var matcher = self.matcher
        for (_, stories) in project.stories(replacing: documents) {
            for story in stories {
                for step in story.steps where seen.insert(step.location.fileAndLine).inserted {
                    guard matcher.matches(step).winner?.definition.id == id else { continue }
                    found.append(Self.location(file: step.location.file, line: step.location.line))
                }
            }
        }
        self.matcher = matcher
        return .array(found)
    }

    /// A converted value as the hover shows it.
    static func describe(_ value: Any) -> String {
        switch value {
        case let string as String: "\"\(string)\""
        case let table as DataTable: "a table of \(table.rows.count) row\(table.rows.count == 1 ? "" : "s")"
        case let docString as DocString: "a doc string of \(docString.content.count) characters"
        default: String(describing: value)
        }
    }
}
