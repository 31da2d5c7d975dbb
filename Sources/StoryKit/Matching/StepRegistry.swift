import Foundation

/// The frozen list of step definitions: finds which ones match a step.
///
/// A class: every story's run and every step's match reach it, and a
/// reference is one retain where a struct was one per list it holds.
public final class StepRegistry: Sendable {
    /// The definitions in registration order.
    public let definitions: [StepDefinition]
    /// The hooks, in registration order.
    let hooks: [Hook]
    /// The parameter types the step classes defined (not the built-ins),
    /// in definition order, for reports that list them.
    let parameterTypes: [ParameterType]
    /// Whether matching a step may call the user's code: the conversions of
    /// parameter types the step classes defined. Such matching stays on the
    /// runner's thread, when the story runs.
    let matchingRunsUserCode: Bool
    /// Built when a step is first matched: a supervised run's parent never
    /// matches, so it never pays for the index.
    private let index: LazyIndex

    init(definitions: [StepDefinition], hooks: [Hook] = [], parameterTypes: [ParameterType] = [], matchingRunsUserCode: Bool = false) {
        self.definitions = definitions
        self.hooks = hooks
        self.parameterTypes = parameterTypes
        self.matchingRunsUserCode = matchingRunsUserCode
        index = LazyIndex(definitions: definitions)
    }

    /// Returns every definition that matches the step, in registration order.
    ///
    /// A regex is searched in the whole line, keyword included, then in the
    /// text after the keyword.
    public func matches(_ step: Step) -> MatchResult {
        matches(step, line: step.line)
    }

    /// Returns every definition that matches the step, whose line is given.
    func matches(_ step: Step, line: String) -> MatchResult {
        MatchResult(matches: matches(line: line, text: step.text, attachment: step.attachment))
    }

    func matches(line: String, text: String, attachment: StepAttachment?) -> [Match] {
        var found: [Match] = []
        index.index.forEachCandidate(forLine: line) { id in
            if let match = match(definitions[id], line: line, text: text, attachment: attachment) { found.append(match) }
        }
        return found
    }

    /// Tries every definition in order, with no index: the answer the index
    /// must reproduce.
    func matchesWithoutIndex(line: String, text: String, attachment: StepAttachment?) -> [Match] {
        definitions.compactMap { match($0, line: line, text: text, attachment: attachment) }
    }

    private func match(_ definition: StepDefinition, line: String, text: String, attachment: StepAttachment?) -> Match? {
        definition.matcher.match(line: line, text: text, attachment: attachment)
            .map { Match(definition: definition, inputs: $0.inputs, capturedTexts: $0.texts) }
    }
}

/// A ``PatternIndex`` made on first use, once, whichever thread asks.
private final class LazyIndex: @unchecked Sendable {
    // Unchecked: `built` is written once, under `lock`, and read after.
    private let lock = NSLock()
    private let definitions: [StepDefinition]
    private var built: PatternIndex?

    init(definitions: [StepDefinition]) {
        self.definitions = definitions
    }

    var index: PatternIndex {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let made = PatternIndex(definitions: definitions)
        built = made
        return made
    }
}
