extension LanguageServer {
    /// Completes a step's text from the definitions and from the step lines
    /// the workspace's stories already use; at the start of a line, the
    /// keywords of the file's language.
    mutating func completion(_ params: JSONValue) -> JSONValue {
        guard let (document, line, character) = position(params) else { return ["isIncomplete": false, "items": []] }
        let text = line <= document.lines.count ? document.lines[line - 1] : ""
        let beforeCursor = String(decoding: Array(text.utf16.prefix(character)), as: UTF16.self)
        let trimmed = beforeCursor.drop { $0 == " " || $0 == "\t" }
        let keyword = stepKeyword(startingLine: String(trimmed), in: document)
        guard let keyword else {
            return ["isIncomplete": false, "items": .array(keywordItems(document, line: line - 1, typed: String(trimmed), end: character))]
        }
        let start = document.textStart(ofLine: line, keyword: keyword)
        let end = text.utf16.count
        let range = StoryDocument.range(line: line - 1, start: min(start, character), end: max(end, character))
        var items: [JSONValue] = []
        var labels: Set<String> = []
        for definition in registry.definitions {
            let template = StepTemplate(definition)
            guard labels.insert(template.label).inserted else { continue }
            items.append([
                "label": .string(template.label), "kind": 15, "insertTextFormat": 2, "filterText": .string(template.label),
                "sortText": "1\(template.label)",
                "detail": "\(definition.pattern) — \(definition.ownerName) (\(definition.location.displayFileAndLine))",
                "textEdit": ["range": range, "newText": .string(template.snippet)],
            ])
        }
        var used: Set<String> = []
        for (_, stories) in project.stories(replacing: documents) {
            for story in stories {
                for step in story.steps where !step.text.isEmpty && used.insert(step.text).inserted {
                    guard labels.insert(step.text).inserted else { continue }
                    items.append([
                        "label": .string(step.text), "kind": 1, "insertTextFormat": 1, "filterText": .string(step.text),
                        "sortText": "0\(step.text)", "detail": "used in \(step.location.displayFileAndLine)",
                        "textEdit": ["range": range, "newText": .string(step.text)],
                    ])
                }
            }
        }
        return ["isIncomplete": false, "items": .array(items)]
    }

    /// The step keyword a line starts with when the cursor is past it, or nil.
    private func stepKeyword(startingLine text: String, in document: StoryDocument) -> String? {
        for keyword in document.outline.stepKeywords(isFeature: document.isFeature) {
            let candidate = text.prefix(keyword.count)
            let isSame = document.isFeature ? candidate == keyword : candidate.lowercased() == keyword.lowercased()
            if isSame, text.count > keyword.count, text.dropFirst(keyword.count).first == " " {
                return String(candidate)
            }
        }
        return nil
    }

    /// The keywords of the file's language, to start a line with.
    private func keywordItems(_ document: StoryDocument, line: Int, typed: String, end: Int) -> [JSONValue] {
        let start = max(0, end - typed.utf16.count)
        let range = StoryDocument.range(line: line, start: start, end: end)
        let steps = document.outline.stepKeywords(isFeature: document.isFeature).map { ($0, $0 + " ") }
        let titles = document.outline.titleKeywords(isFeature: document.isFeature).map { ($0, $0 + " ") }
        return (steps + titles).map { label, text in
            ["label": .string(label), "kind": 14, "textEdit": ["range": range, "newText": .string(text)]]
        }
    }
}
