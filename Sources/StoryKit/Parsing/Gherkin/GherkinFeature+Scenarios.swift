extension GherkinFeature {
    /// Calls `body` with each scenario in file order, as Cucumber's compiler
    /// walks a feature: with the tags it inherits (the feature's, then its
    /// rule's) and the background steps that run before it (the feature's,
    /// then its rule's).
    func forEachScenario(
        _ body: (_ scenario: GherkinScenario, _ inheritedTags: [GherkinTag], _ background: [GherkinStep]) -> Void
    ) {
        var background: [GherkinStep] = []
        for child in children {
            switch child {
            case .background(let value):
                background += value.steps
            case .scenario(let scenario):
                body(scenario, tags, background)
            case .rule(let rule):
                var ruleBackground = background
                let ruleTags = tags + rule.tags
                for ruleChild in rule.children {
                    switch ruleChild {
                    case .background(let value):
                        ruleBackground += value.steps
                    case .scenario(let scenario):
                        body(scenario, ruleTags, ruleBackground)
                    case .rule:
                        break
                    }
                }
            }
        }
    }
}

extension GherkinStep.KeywordType {
    /// The type a step with this keyword has once `And` and `But` are
    /// resolved: a conjunction keeps `previous`, the type of the step before.
    func resolved(after previous: GherkinStep.KeywordType) -> GherkinStep.KeywordType {
        self == .conjunction ? previous : self
    }
}
