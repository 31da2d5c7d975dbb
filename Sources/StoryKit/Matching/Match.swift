/// A step definition that matches a step, with the inputs for its closure.
public struct Match: Sendable {
    /// The definition that matched.
    public let definition: StepDefinition
    /// The inputs for the closure's parameters, in order.
    public let inputs: [StepArgumentInput]
    /// The captured texts, for reports; gathered when the step is matched,
    /// which is before it runs.
    public let capturedTexts: [String?]
    /// Where each capture group lies in the step text, for reports.
    public let spans: GroupSpans

    init(definition: StepDefinition, inputs: [StepArgumentInput], capturedTexts: [String?], spans: GroupSpans = .none) {
        self.definition = definition
        self.inputs = inputs
        self.capturedTexts = capturedTexts
        self.spans = spans
    }
}

/// Every step definition that matches one step, in registration order.
public struct MatchResult: Sendable {
    /// The matches; the first one wins (Simon's rule).
    public let matches: [Match]

    /// The match that runs, if any.
    public var winner: Match? { matches.first }
    /// Whether no definition matches.
    public var isUndefined: Bool { matches.isEmpty }
    /// Whether more than one definition matches.
    public var isAmbiguous: Bool { matches.count > 1 }
}
