/// Simon's rules for the order of steps in a story.
///
/// Story → As | Given; As → Given | When; Given → When | Then | And;
/// When → Then | And; Then → And | Story. `And` and `But` keep the kind
/// of the step before them.
enum OrderRule {
    /// The kinds that may follow a kind; `nil` stands for the Story line.
    static func allowed(after previous: Step.Kind?) -> [StepKeyword] {
        switch previous {
        case nil: [.as, .given]
        case .role: [.given, .when]
        case .context: [.when, .then, .and, .but]
        case .action: [.then, .and, .but]
        case .outcome: [.and, .but]
        case .unknown: StepKeyword.allCases
        }
    }

    /// Returns the problem when the keyword may not follow the previous
    /// step, or nil when it may.
    static func check(keyword: StepKeyword, previous: Step.Kind?) -> StoriesParser.Problem? {
        let allowed = allowed(after: previous)
        guard !allowed.contains(keyword) else { return nil }
        return .outOfOrder(keyword: keyword, previous: previous, allowed: allowed)
    }
}

extension Step.Kind {
    /// The keyword that starts this kind of step.
    var keywordTitle: String {
        switch self {
        case .role: "As"
        case .context: "Given"
        case .action: "When"
        case .outcome: "Then"
        case .unknown: "*"
        }
    }
}
