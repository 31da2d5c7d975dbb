/// The lines of a story file, each classified by what it starts with: what
/// document symbols, formatting and completion need, and forgiving of
/// errors (a file that does not parse still has an outline).
struct StoryOutline {
    /// What a line is.
    enum Kind: Equatable {
        case blank
        case comment
        /// `# language: xx`.
        case language(String)
        case tags
        /// `Feature:`, `Rule:`, `Background:`, `Scenario:` (and outline),
        /// `Examples:` in a `.feature` file; `Story:` in a `.stories` file.
        case title(Title, keyword: String, name: String)
        /// A step line, with its keyword as written.
        case step(keyword: String)
        case tableRow
        /// A doc string's opening or closing fence.
        case docFence
        /// A line inside a doc string.
        case docContent
        /// A description or anything else.
        case other
    }

    /// The title keywords, outermost first.
    enum Title: Equatable {
        case feature, rule, background, scenario, examples, story
    }

    /// The kind of each line, in order.
    let kinds: [Kind]
    /// The lines, without their line ends.
    let lines: [String]
    /// The dialect of a `.feature` file (English unless `# language:` names another).
    let dialect: GherkinDialect

    /// Classifies the lines of a file.
    init(lines: [String], isFeature: Bool) {
        self.lines = lines
        var dialect = GherkinDialect.english
        if isFeature {
            for line in lines.prefix(50) {
                if let code = Self.languageCode(line) {
                    dialect = GherkinDialect.named(code) ?? .english
                    break
                }
            }
        }
        self.dialect = dialect
        var kinds: [Kind] = []
        kinds.reserveCapacity(lines.count)
        var fence: String?
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix(open) { kinds.append(.docFence); fence = nil } else { kinds.append(.docContent) }
                continue
            }
            if isFeature, trimmed.hasPrefix("\"\"\"") || trimmed.hasPrefix("```") {
                fence = String(trimmed.prefix(3))
                kinds.append(.docFence)
                continue
            }
            kinds.append(isFeature ? Self.featureKind(trimmed, dialect: dialect) : Self.storiesKind(trimmed))
        }
        self.kinds = kinds
    }

    /// The code of a `# language:` line, or nil.
    static func languageCode(_ line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("#") else { return nil }
        let rest = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
        guard rest.hasPrefix("language") else { return nil }
        let afterWord = rest.dropFirst("language".count).trimmingCharacters(in: .whitespaces)
        guard afterWord.hasPrefix(":") else { return nil }
        let code = afterWord.dropFirst().trimmingCharacters(in: .whitespaces)
        return code.isEmpty ? nil : code
    }

    private static func featureKind(_ trimmed: String, dialect: GherkinDialect) -> Kind {
        if trimmed.isEmpty { return .blank }
        if trimmed.hasPrefix("#") { return languageCode(trimmed).map { .language($0) } ?? .comment }
        if trimmed.hasPrefix("@") { return .tags }
        if trimmed.hasPrefix("|") { return .tableRow }
        let titles: [(Title, [GherkinDialect.TitleKeyword])] = [
            (.feature, dialect.featureKeywords), (.rule, dialect.ruleKeywords),
            (.background, dialect.backgroundKeywords), (.examples, dialect.examplesKeywords),
            (.scenario, dialect.scenarioKeywords),
        ]
        // The longest keyword first: `Scenario Outline:` before `Scenario:`.
        var best: (Title, String)?
        for (title, keywords) in titles {
            for keyword in keywords where trimmed.hasPrefix(keyword.keyword + ":") {
                if keyword.keyword.count > (best?.1.count ?? -1) { best = (title, keyword.keyword) }
            }
        }
        if let (title, keyword) = best {
            let name = trimmed.dropFirst(keyword.count + 1).trimmingCharacters(in: .whitespaces)
            return .title(title, keyword: keyword, name: name)
        }
        for keyword in dialect.stepKeywords where trimmed.hasPrefix(keyword.keyword) {
            return .step(keyword: keyword.keyword.trimmingCharacters(in: .whitespaces))
        }
        return .other
    }

    private static func storiesKind(_ trimmed: String) -> Kind {
        let line = StoryLine(Substring(trimmed))
        if line.isBlank { return .blank }
        if line.isComment { return .comment }
        if line.isTagLine { return .tags }
        if let name = line.storyName { return .title(.story, keyword: "Story", name: name) }
        if StepKeyword(line.firstWord) != nil { return .step(keyword: String(line.firstWord)) }
        return .other
    }

    /// The step keywords a line may start with in this file, as usually written.
    func stepKeywords(isFeature: Bool) -> [String] {
        guard isFeature else { return StepKeyword.allCases.map(\.title) }
        var seen: Set<String> = []
        return dialect.stepKeywords.map { $0.keyword.trimmingCharacters(in: .whitespaces) }.filter { seen.insert($0).inserted }
    }

    /// The title keywords, each with its colon.
    func titleKeywords(isFeature: Bool) -> [String] {
        guard isFeature else { return ["Story:"] }
        return (dialect.featureKeywords + dialect.ruleKeywords + dialect.backgroundKeywords
            + dialect.scenarioKeywords + dialect.examplesKeywords).map { $0.keyword + ":" }
    }
}
