/// A `Feature:` with its tags, description, background, scenarios and rules.
struct GherkinFeature: Sendable {
    /// A child of a feature or rule, in file order.
    enum Child: Sendable {
        /// The `Background:` (always first).
        case background(GherkinBackground)
        /// A scenario or scenario outline.
        case scenario(GherkinScenario)
        /// A `Rule:` (features only).
        case rule(GherkinRule)
    }

    /// The feature's tags.
    var tags: [GherkinTag]
    /// Where the `Feature:` line is.
    var location: GherkinLocation
    /// The dialect's code (`en`).
    var language: String
    /// The keyword as written (`Feature`, `Fonctionnalité`).
    var keyword: String
    /// The name after the keyword.
    var name: String
    /// The free text under the feature line.
    var description: String
    /// The background, scenarios and rules.
    var children: [Child]
}

/// A `Rule:` grouping scenarios, with its own optional background.
struct GherkinRule: Sendable {
    /// The rule's id.
    var id: Int
    /// The rule's tags.
    var tags: [GherkinTag]
    /// Where the `Rule:` line is.
    var location: GherkinLocation
    /// The keyword as written.
    var keyword: String
    /// The name after the keyword.
    var name: String
    /// The free text under the rule line.
    var description: String
    /// The background and scenarios (never rules).
    var children: [GherkinFeature.Child]
}

/// A `Background:`: steps that run before each scenario of its feature or rule.
struct GherkinBackground: Sendable {
    /// The background's id.
    var id: Int
    /// Where the `Background:` line is.
    var location: GherkinLocation
    /// The keyword as written.
    var keyword: String
    /// The name after the keyword.
    var name: String
    /// The free text under the background line.
    var description: String
    /// The steps.
    var steps: [GherkinStep]
}
