/// What the parent checks of a worker's word about a match before reports
/// use it: the definition id and the group spans a result carries.
///
/// The parent takes no worker's word for what it can check (the threat
/// model: step code may scribble on the worker's channel by accident). An
/// id must name one of the run's definitions whose pattern and place are
/// the match's; each span must lie inside the step text, and the text
/// there must be the argument the match captured (a group that took no
/// part, no argument). On a mismatch the id and the spans are dropped,
/// not the step: reports then show its arguments unplaced, as for a
/// match of a definition the run does not have.
enum WorkerClaims {
    /// The spans, when they place `arguments` in `text` by the layout of
    /// `definition`'s groups; else none.
    static func checked(_ spans: GroupSpans, arguments: [String?], text: String, definition: StepDefinition?) -> GroupSpans {
        guard !spans.isEmpty else { return spans }
        var match = MatchInfo(pattern: "", location: SourceLocation(file: "", line: 0), arguments: arguments)
        match.spans = spans
        let parents = definition?.matcher.groupParents ?? []
        let layout = GroupLayout(parents: parents, parameterTypeNames: nil)
        var text = text
        return text.withUTF8 { bytes -> GroupSpans in
            for group in 0..<spans.count {
                guard let span = spans[group] else { continue }
                guard span.upperBound <= bytes.count else { return .none }
                // A nested group lies inside its parent.
                if group < parents.count, parents[group] >= 0 {
                    guard let outer = spans[Int(parents[group])], outer.contains(span) || (span.isEmpty && outer.upperBound == span.lowerBound)
                    else { return .none }
                }
            }
            for index in arguments.indices {
                guard let group = layout.group(ofArgument: index, in: match) else { return .none }
                switch (arguments[index], spans[group]) {
                case (nil, nil): continue
                case (let argument?, let span?):
                    guard argument.utf8.elementsEqual(UnsafeBufferPointer(rebasing: bytes[span])) else { return .none }
                default: return .none
                }
            }
            return spans
        }
    }

    /// `match` with its id kept only when it names the run's definition of
    /// its pattern and place, and its spans only when they check.
    static func checked(_ match: MatchInfo, text: String, registry: StepRegistry) -> MatchInfo {
        var match = match
        var definition: StepDefinition?
        if let id = match.definitionID {
            if id >= 0, id < registry.definitions.count, registry.definitions[id].pattern == match.pattern,
                registry.definitions[id].location == match.location
            {
                definition = registry.definitions[id]
            } else {
                match.definitionID = nil
            }
        }
        match.spans = checked(match.spans, arguments: match.arguments, text: text, definition: definition)
        return match
    }

    /// Checks every match in `result` (its attempts' too).
    static func check(_ result: inout StoryResult, registry: StepRegistry) {
        result.changeEveryAttempt { check(&$0, registry: registry) }
    }

    private static func check(_ testSteps: inout [TestStepResult], registry: StepRegistry) {
        for index in testSteps.indices {
            guard case .step(var step) = testSteps[index], step.match != nil || !step.alsoMatched.isEmpty else { continue }
            let text = step.step.text
            if let match = step.match { step.match = checked(match, text: text, registry: registry) }
            if !step.alsoMatched.isEmpty { step.alsoMatched = step.alsoMatched.map { checked($0, text: text, registry: registry) } }
            testSteps[index] = .step(step)
        }
    }
}
