/// Finds the step definition an undefined step probably meant: the one
/// whose literal text is closest to the step's, by edit distance.
enum Suggestion {
    /// The closest definition, when it is close enough to be worth naming.
    static func closest(to step: Step, in definitions: [StepDefinition]) -> StepDefinition? {
        closest(to: step, in: definitions, pattern: \.pattern)
    }

    /// The closest of the registry's definitions, from their skeletons
    /// made once for the registry (a run asks for each undefined step).
    static func closest(to step: Step, in registry: StepRegistry) -> StepDefinition? {
        var work = Work()
        return registry.undefinedStepAdvice.candidates.closest(to: step, work: &work).map { registry.definitions[$0] }
    }

    /// The closest of any definitions known by their pattern (`storyrun
    /// merge` knows them from a Messages stream).
    static func closest<Definition>(to step: Step, in definitions: [Definition], pattern: (Definition) -> String) -> Definition? {
        var work = Work()
        return Candidates(definitions.prefix(Candidates.limit).map(pattern)).closest(to: step, work: &work).map { definitions[$0] }
    }

    /// The pattern's text with anchors, groups and escapes reduced to what a
    /// matching step would roughly contain.
    static func skeleton(of pattern: String) -> String {
        var out = ""
        var depth = 0
        var iterator = pattern.makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\\": _ = iterator.next()
            case "(", "{": if depth == 0 { out.append("x") }; depth += 1
            case ")", "}": depth = max(0, depth - 1)
            case "^", "$", "?", "*", "+", ".": break
            default: if depth == 0 { out.append(character) }
            }
        }
        return out.lowercased()
    }

    /// What a search did, for tests that count it.
    struct Work {
        /// Edit distances computed (each bounded, most cut short).
        var distances = 0
        /// Candidates ruled out by a cheap lower bound alone.
        var ruledOut = 0
    }
}
