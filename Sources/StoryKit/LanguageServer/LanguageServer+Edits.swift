import Foundation

extension LanguageServer {
    /// Formats a whole document: one edit that replaces its text, or none.
    func formatting(_ params: JSONValue) -> JSONValue? {
        guard let uri = params["textDocument"]?["uri"]?.stringValue, let document = documents[uri] else { return [] }
        let formatted = StoryFormatter.format(document.outline, isFeature: document.isFeature)
        let original = document.lines.joined(separator: "\n")
        guard formatted != original else { return [] }
        let last = document.lines.count - 1
        let range: JSONValue = ["start": ["line": 0, "character": 0], "end": ["line": .number(last), "character": .number(document.lines[last].utf16.count)]]
        return [["range": range, "newText": .string(formatted)]]
    }

    /// For each undefined step in the range, one quick fix per step class:
    /// "define this step" inserts the snippet, named for that class, above
    /// the class's first definition in its Swift file.
    func codeActions(_ params: JSONValue) -> JSONValue? {
        guard let uri = params["textDocument"]?["uri"]?.stringValue, let document = documents[uri],
            let startLine = params["range"]?["start"]?["line"]?.integer,
            let endLine = params["range"]?["end"]?["line"]?.integer
        else { return [] }
        let diagnostics = (params["context"]?["diagnostics"]?.arrayValue ?? []).filter { $0["code"]?.stringValue == "undefined" }
        var actions: [JSONValue] = []
        var firstDefinitions: [String: SourceLocation] = [:]
        var owners: [String] = []
        for definition in registry.definitions {
            if let known = firstDefinitions[definition.ownerName] {
                if known.file == definition.location.file, definition.location.line < known.line {
                    firstDefinitions[definition.ownerName] = definition.location
                }
            } else {
                firstDefinitions[definition.ownerName] = definition.location
                owners.append(definition.ownerName)
            }
        }
        for line in (startLine + 1)...max(startLine + 1, endLine + 1) {
            guard let use = document.use(atLine: line), use.result.isUndefined else { continue }
            let related = diagnostics.filter { $0["range"]?["start"]?["line"]?.integer == line - 1 }
            for owner in owners {
                guard let location = firstDefinitions[owner], let swift = try? String(contentsOfFile: location.file, encoding: .utf8) else { continue }
                let swiftLines = swift.split(separator: "\n", omittingEmptySubsequences: false)
                guard location.line >= 1, location.line <= swiftLines.count else { continue }
                let indent = String(swiftLines[location.line - 1].prefix { $0 == " " || $0 == "\t" })
                let code = Snippet(for: use.step, stepClass: owner, numbers: .used(in: registry)).code()
                    .split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
                let edit: JSONValue = [
                    "range": StoryDocument.range(line: location.line - 1, start: 0, end: 0), "newText": "\(code)\n",
                ]
                actions.append([
                    "title": "Define this step in \(owner) (\((location.file as NSString).lastPathComponent))",
                    "kind": "quickfix", "diagnostics": .array(related), "isPreferred": .bool(actions.isEmpty),
                    "edit": ["changes": .object([(StoryDocument.uri(ofPath: location.file), .array([edit]))])],
                ])
            }
        }
        return .array(actions)
    }
}
