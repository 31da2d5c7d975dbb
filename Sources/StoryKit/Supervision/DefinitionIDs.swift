/// The run's step definitions' ids by pattern and place.
///
/// A story that did not pass plainly comes back from its worker as JSON,
/// whose matches carry no definition id (ids are not encoded): its reports
/// then had to search the step text for each captured text, and put an
/// "a" captured at the end of "a step with a" at 0. The parent gives each
/// such match the id of its own definition with the same pattern and place
/// (a match no definition of the run has keeps none), so reports place
/// arguments from the definition, as they do in process.
struct DefinitionIDs {
    private let byKey: [MatchInfo.Key: Int]

    init(_ registry: StepRegistry) {
        var byKey: [MatchInfo.Key: Int] = [:]
        for definition in registry.definitions where definition.id >= 0 {
            byKey[MatchInfo.Key(pattern: definition.pattern, location: definition.location)] = definition.id
        }
        self.byKey = byKey
    }

    /// Gives every match in `result` (its attempts' too) that has no id
    /// the id of the run's definition behind it.
    func attach(to result: inout StoryResult) {
        attach(to: &result.testSteps)
        for index in result.earlierAttempts.indices { attach(to: &result.earlierAttempts[index].testSteps) }
    }

    private func attach(to testSteps: inout [TestStepResult]) {
        for index in testSteps.indices {
            guard case .step(var step) = testSteps[index], needsIDs(step) else { continue }
            if let match = step.match, match.definitionID == nil { step.match?.definitionID = byKey[match.key] }
            for other in step.alsoMatched.indices where step.alsoMatched[other].definitionID == nil {
                step.alsoMatched[other].definitionID = byKey[step.alsoMatched[other].key]
            }
            testSteps[index] = .step(step)
        }
    }

    private func needsIDs(_ step: StepResult) -> Bool {
        step.match.map { $0.definitionID == nil } ?? false || step.alsoMatched.contains { $0.definitionID == nil }
    }
}
