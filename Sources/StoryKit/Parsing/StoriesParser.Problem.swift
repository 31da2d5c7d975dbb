extension StoriesParser {
    /// Why a line of a `.stories` file was rejected.
    enum Problem {
        case stepBeforeStory(String)
        case unknownKeyword(String)
        case outOfOrder(keyword: StepKeyword, previous: Step.Kind?, allowed: [StepKeyword])
        case storyWithoutSteps(String)
        case storyWithoutName
        case badTag

        var message: String {
            switch self {
            case .stepBeforeStory(let text):
                "step \"\(text)\" comes before any Story line"
            case .unknownKeyword(let word):
                "\"\(word)\" is not a step keyword"
            case .outOfOrder(let keyword, let previous, _):
                "\(keyword.title) cannot follow \(previous.map { $0.keywordTitle } ?? "the Story line")"
            case .storyWithoutSteps(let name):
                "story \"\(name)\" has no steps"
            case .storyWithoutName:
                "the Story line has no name"
            case .badTag:
                "a tag line holds only tags, each starting with @"
            }
        }

        var help: String {
            switch self {
            case .stepBeforeStory:
                return "start the story with a line such as \"Story: A customer fills a basket\""
            case .unknownKeyword(let word):
                let suggestion = StepKeyword.allCases.map(\.title)
                    .min { word.editDistance(to: $0) < word.editDistance(to: $1) }
                    .flatMap { word.editDistance(to: $0) <= 2 ? " (did you mean \"\($0)\"?)" : nil } ?? ""
                return "start a step with As, Given, When, Then, And or But\(suggestion); start a comment with #"
            case .outOfOrder(_, let previous, let allowed):
                let names = allowed.filter { $0 != .but }.map(\.title).joined(separator: " or ")
                let after = previous.map { "after \($0.keywordTitle)" } ?? "after the Story line"
                return previous == .outcome
                    ? "\(after) only And may follow; start a new Story for another action"
                    : "\(after) write \(names)"
            case .storyWithoutSteps:
                return "add Given, When and Then lines under it, or remove it"
            case .storyWithoutName:
                return "name the story after the colon, e.g. \"Story: A customer fills a basket\""
            case .badTag:
                return "write tags as \"@smoke @slow\" on the line above a Story line"
            }
        }
    }
}

extension String {
    /// The Levenshtein distance to another string, ignoring case.
    func editDistance(to other: String) -> Int {
        let a = Array(lowercased()), b = Array(other.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1,
                    previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
