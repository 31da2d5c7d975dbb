/// Finds the step definition an undefined step probably meant: the one
/// whose literal text is closest to the step's, by edit distance.
enum Suggestion {
    /// The closest definition, when it is close enough to be worth naming.
    static func closest(to step: Step, in definitions: [StepDefinition]) -> StepDefinition? {
        closest(to: step, in: definitions, pattern: \.pattern)
    }

    /// The closest of any definitions known by their pattern (`storyrun
    /// merge` knows them from a Messages stream).
    static func closest<Definition>(to step: Step, in definitions: [Definition], pattern: (Definition) -> String) -> Definition? {
        // A pattern may include the keyword (Simon) or not (Cucumber).
        // Counted once: counting the characters of a 20 MB step for each
        // definition took seconds.
        let texts = [step.text.lowercased(), step.line.lowercased()].map { (text: $0, count: $0.count) }
        var best: (definition: Definition, distance: Int, length: Int)?
        for definition in definitions.prefix(5_000) {
            let skeleton = Self.skeleton(of: pattern(definition))
            let skeletonCount = skeleton.count
            for (text, count) in texts {
                // Lengths alone rule most definitions out cheaply.
                guard abs(skeletonCount - count) <= max(count / 3, 2) else { continue }
                let distance = text.editDistance(to: skeleton)
                if distance < (best?.distance ?? Int.max) { best = (definition, distance, count) }
            }
        }
        guard let best, best.distance <= max(best.length / 4, 2) else { return nil }
        return best.definition
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
}
