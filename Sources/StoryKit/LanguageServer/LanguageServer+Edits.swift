import Foundation

extension LanguageServer {
    /// Formats a whole document: one edit that replaces its text, or none.
    func formatting(_ params: JSONObject) -> Any? {
        guard let uri = (params["textDocument"] as? JSONObject)?["uri"] as? String, let document = documents[uri] else { return [] }
        let formatted = StoryFormatter.format(document.outline, isFeature: document.isFeature)
        let original = document.lines.joined(separator: "\n")
        guard formatted != original else { return [] }
        let last = document.lines.count - 1
        let range = ["start": ["line": 0, "character": 0], "end": ["line": last, "character": document.lines[last].utf16.count]]
        return [["range": range, "newText": formatted] as JSONObject]
    }

    /// For each undefined step in the range, one quick fix per step class:
    /// "define this step" inserts the snippet, named for that class, above
    /// the class's first definition in its Swift file.
    func codeActions(_ params: JSONObject) -> Any? {
        guard let uri = (params["textDocument"] as? JSONObject)?["uri"] as? String, let document = documents[uri],
            let range = params["range"] as? JSONObject,
            let startLine = (range["start"] as? JSONObject)?["line"] as? Int,
            let endLine = (range["end"] as? JSONObject)?["line"] as? Int
        else { return [] }
        let context = params["context"] as? JSONObject
        let diagnostics = (context?["diagnostics"] as? [JSONObject] ?? []).filter { $0["code"] as? String == "undefined" }
        var actions: [JSONObject] = []
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
            let related = diagnostics.filter { (($0["range"] as? JSONObject)?["start"] as? JSONObject)?["line"] as? Int == line - 1 }
            for owner in owners {
                guard let location = firstDefinitions[owner], let swift = try? String(contentsOfFile: location.file, encoding: .utf8) else { continue }
                let swiftLines = swift.split(separator: "\n", omittingEmptySubsequences: false)
                guard location.line >= 1, location.line <= swiftLines.count else { continue }
                let indent = String(swiftLines[location.line - 1].prefix { $0 == " " || $0 == "\t" })
                let code = Snippet(for: use.step, stepClass: owner, numbers: .used(in: registry)).code()
                    .split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
                let edit: JSONObject = [
                    "range": StoryDocument.range(line: location.line - 1, start: 0, end: 0), "newText": code + "\n",
                ]
                actions.append([
                    "title": "Define this step in \(owner) (\((location.file as NSString).lastPathComponent))",
                    "kind": "quickfix", "diagnostics": related, "isPreferred": actions.isEmpty,
                    "edit": ["changes": [StoryDocument.uri(ofPath: location.file): [edit]]] as JSONObject,
                ])
            }
        }
        return actions
    }
}
