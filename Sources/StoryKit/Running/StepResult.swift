/// The outcome of one step, as events and reports carry it.
public struct StepResult: Sendable, Codable {
    /// The step.
    public var step: Step
    /// What happened.
    public var status: StepStatus
    /// How long the step ran, in nanoseconds.
    public var duration: UInt64
    /// Why the step failed, if it did.
    public var error: StepError?
    /// The definition that ran the step (the first that matched).
    public var match: MatchInfo?
    /// Other definitions that matched too, in registration order.
    public var alsoMatched: [MatchInfo]
    /// For an undefined step, the definition it was probably meant for.
    public var didYouMean: MatchInfo? = nil
}

/// A step definition that matched a step, as reports show it.
public struct MatchInfo: Sendable, Codable, Hashable {
    /// The pattern as registered.
    public var pattern: String
    /// Where the definition was registered.
    public var location: SourceLocation
    /// The captured texts.
    public var arguments: [String?]

    init(_ match: Match) {
        pattern = match.definition.pattern
        location = match.definition.location
        arguments = match.capturedTexts
    }

    init(_ definition: StepDefinition) {
        pattern = definition.pattern
        location = definition.location
        arguments = []
    }
}

/// Why a step failed.
public struct StepError: Sendable, Codable, Hashable {
    /// The message.
    public var message: String
    /// Where in Swift the failure was raised, when known.
    public var location: SourceLocation?

    /// Creates a step error.
    public init(message: String, location: SourceLocation? = nil) {
        self.message = message
        self.location = location
    }

    /// Describes any error a step threw.
    init(_ error: any Error) {
        if let located = error as? any LocatedError {
            self.init(message: String(describing: error), location: located.location)
        } else {
            let text = String(describing: error)
            let typeName = String(describing: type(of: error))
            self.init(message: text.hasPrefix(typeName) ? text : "\(typeName): \(text)")
        }
    }
}

/// The outcome of one story.
public struct StoryResult: Sendable, Codable {
    /// The story.
    public var story: Story
    /// What happened.
    public var status: StoryStatus
    /// Each step's outcome, in order.
    public var steps: [StepResult]
    /// How long the story ran, in nanoseconds.
    public var duration: UInt64
    /// The hooks that ran around the story and its steps.
    public var hooks: [HookResult] = []
    /// How many times the story ran: more than 1 with `--retry`.
    public var attempts: Int = 1

    /// Whether the story passed only when it was run again (`--retry`).
    public var isFlaky: Bool { status == .passed && attempts > 1 }

    /// Creates a story result.
    public init(story: Story, status: StoryStatus, steps: [StepResult], duration: UInt64, hooks: [HookResult] = [], attempts: Int = 1) {
        self.story = story
        self.status = status
        self.steps = steps
        self.duration = duration
        self.hooks = hooks
        self.attempts = attempts
    }
}
