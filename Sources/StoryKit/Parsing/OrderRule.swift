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

    /// Whether the keyword may follow the previous step: the rule without
    /// the list ``allowed(after:)`` makes (an array per step).
    static func allows(_ keyword: StepKeyword, after previous: Step.Kind?) -> Bool {
        switch previous {
        case nil: keyword == .as || keyword == .given
        case .role: keyword == .given || keyword == .when
        case .context: keyword != .as && keyword != .given
        case .action: keyword == .then || keyword == .and || keyword == .but
        case .outcome: keyword == .and || keyword == .but
        case .unknown: true
        }
    }

    /// Returns the problem when the keyword may not follow the previous
    /// step, or nil when it may.
    static func check(keyword: StepKeyword, previous: Step.Kind?) -> StoriesParser.Problem? {
        guard !allows(keyword, after: previous) else { return nil }
        return .outOfOrder(keyword: keyword, previous: previous, allowed: allowed(after: previous))
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
