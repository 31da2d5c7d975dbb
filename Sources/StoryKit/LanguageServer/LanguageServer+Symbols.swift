extension LanguageServer {
    /// The outline of a document: features, rules, backgrounds, stories
    /// (scenarios) and examples, nested.
    func documentSymbols(_ params: JSONValue) -> JSONValue? {
        guard let uri = params["textDocument"]?["uri"]?.stringValue, let document = documents[uri] else { return [] }
        return .array(Self.symbols(document))
    }

    /// The nested symbols of a document.
    static func symbols(_ document: StoryDocument) -> [JSONValue] {
        // Titles in order, each with its depth.
        var titles: [(line: Int, depth: Int, title: StoryOutline.Title, keyword: String, name: String)] = []
        var ruleOpen = false
        for (index, kind) in document.kinds.enumerated() {
            guard case .title(let title, let keyword, let name) = kind else { continue }
            let depth: Int
            switch title {
            case .feature: depth = 0; ruleOpen = false
            case .rule: depth = 1; ruleOpen = true
            case .background, .scenario: depth = ruleOpen ? 2 : 1
            case .examples: depth = ruleOpen ? 3 : 2
            case .story: depth = 0
            }
            titles.append((index + 1, depth, title, keyword, name))
        }
        // Each symbol ends where the next one at its depth or above starts.
        func build(_ range: Range<Int>) -> [JSONValue] {
            var out: [JSONValue] = []
            var index = range.lowerBound
            while index < range.upperBound {
                let entry = titles[index]
                var end = index + 1
                while end < range.upperBound, titles[end].depth > entry.depth { end += 1 }
                var lastLine = end < titles.count ? titles[end].line - 1 : document.lines.count
                while lastLine > entry.line, document.lines[lastLine - 1].trimmingCharacters(in: .whitespaces).isEmpty { lastLine -= 1 }
                let endCharacter = document.lines[lastLine - 1].utf16.count
                var symbol: [(String, JSONValue)] = [
                    ("name", .string(entry.name.isEmpty ? entry.keyword : entry.name)),
                    ("detail", .string(entry.keyword)),
                    ("kind", .number(kind(entry.title))),
                    ("range", ["start": ["line": .number(entry.line - 1), "character": 0], "end": ["line": .number(lastLine - 1), "character": .number(endCharacter)]]),
                    ("selectionRange", document.lineRange(entry.line)),
                ]
                let children = build((index + 1)..<end)
                if !children.isEmpty { symbol.append(("children", .array(children))) }
                out.append(.object(symbol))
                index = end
            }
            return out
        }
        return build(0..<titles.count)
    }

    /// The LSP symbol kind of a title.
    private static func kind(_ title: StoryOutline.Title) -> Int {
        switch title {
        case .feature: 2  // Module
        case .rule: 3  // Namespace
        case .background: 9  // Constructor
        case .scenario, .story: 12  // Function
        case .examples: 18  // Array
        }
    }
}
