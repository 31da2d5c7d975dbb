extension LanguageServer {
    /// The LSP diagnostics of a document: the parser's, then each step line's
    /// undefined, ambiguous and conversion problems, as a run would find them.
    func diagnostics(of document: StoryDocument) -> [JSONValue] {
        var out: [JSONValue] = document.parseDiagnostics.map { diagnostic in
            let line = diagnostic.location?.line ?? 1
            return Self.lsp(diagnostic, range: document.lineRange(line, fromColumn: diagnostic.location?.column ?? 0), code: "parse")
        }
        var seen: Set<String> = []
        for line in document.usesByLine.keys.sorted() {
            for use in document.usesByLine[line] ?? [] {
                for diagnostic in problems(of: use, in: document) {
                    let key = "\(diagnostic["range"]?["start"]?["line"]?.integer ?? 0):\(diagnostic["message"]?.stringValue ?? "")"
                    if seen.insert(key).inserted { out.append(diagnostic) }
                }
            }
        }
        return out
    }

    /// The diagnostics of one use of a step.
    private func problems(of use: StoryDocument.StepUse, in document: StoryDocument) -> [JSONValue] {
        let step = use.step
        let range = document.lineRange(step.location.line)
        if use.result.isUndefined {
            var message = "undefined step: no step definition matches \"\(step.line)\""
            if let close = Suggestion.closest(to: step, in: registry.definitions) {
                message += "; did you mean \"\(close.pattern)\" (\(close.location.displayFileAndLine))?"
            }
            let snippet = Snippet(for: step, numbers: .used(in: registry)).code()
            message += "\nhelp: define it with the quick fix, or paste this snippet into a step class:\n" + snippet
            return [["range": range, "severity": 2, "source": "storyrun", "code": "undefined", "message": .string(message),
                     "data": ["snippet": .string(snippet)]]]
        }
        var out: [JSONValue] = []
        if use.result.isAmbiguous {
            out.append(Self.lsp(AmbiguityDiagnostic.make(step: step, result: use.result, isStrict: false), range: range, code: "ambiguous"))
        }
        if let error = use.conversionError {
            let row = exampleRow(of: use, in: document)
            var message = Self.conversionMessage(error, definition: use.result.winner?.definition)
            if let row { message += " (in the Examples row at line \(row))" }
            out.append(["range": range, "severity": 1, "source": "storyrun", "code": "conversion", "message": .string(message)])
            if let row {
                out.append([
                    "range": document.lineRange(row), "severity": 1, "source": "storyrun", "code": "conversion",
                    "message": .string(Self.conversionMessage(error, definition: use.result.winner?.definition) + " (step at line \(step.location.line): \(step.line))"),
                ])
            }
        }
        return out
    }

    /// The line of the Examples row the story of a use comes from, if it comes from one.
    func exampleRow(of use: StoryDocument.StepUse, in document: StoryDocument) -> Int? {
        let line = use.story.location.line
        guard document.isFeature, line >= 1, line <= document.kinds.count, document.kinds[line - 1] == .tableRow else { return nil }
        return line
    }

    /// What a run would say about an argument that does not convert, without the step's place.
    static func conversionMessage(_ error: ArgumentConversionError, definition: StepDefinition?) -> String {
        let pattern = definition.map { " for \"\($0.pattern)\" (\($0.location.displayFileAndLine))" } ?? ""
        if error.takesAttachment {
            return "argument \(error.position) wants a \(error.typeName)\(pattern), but the step has none written under it"
        }
        guard let text = error.text else {
            return "argument \(error.position) is missing: its group took no part in the match\(pattern); make the parameter Optional"
        }
        return "argument \(error.position) \"\(text)\" is not \(error.typeName.withIndefiniteArticle)\(pattern)"
    }

    /// A diagnostic as LSP shows it: the problem, its help and its notes.
    static func lsp(_ diagnostic: Diagnostic, range: JSONValue, code: String) -> JSONValue {
        var message = diagnostic.problem
        if let help = diagnostic.help { message += "\nhelp: \(help)" }
        var members: [(String, JSONValue)] = [
            ("range", range), ("severity", diagnostic.severity == .error ? 1 : diagnostic.severity == .warning ? 2 : 3),
            ("source", "storyrun"), ("code", .string(code)), ("message", .string(message)),
        ]
        let related: [JSONValue] = diagnostic.notes.compactMap { note in
            guard let location = note.location else { return nil }
            return ["location": Self.location(file: location.file, line: location.line), "message": .string(note.message)]
        }
        if !related.isEmpty { members.append(("relatedInformation", .array(related))) }
        return .object(members)
    }
}

extension StoryDocument {
    /// The kinds of the lines.
    var kinds: [StoryOutline.Kind] { outline.kinds }
}
