import Foundation

/// The outcome of one step, as events and reports carry it.
///
/// Its fields live in one shared, immutable reference: a result goes from
/// the runner through events to every report, and each copy is then one
/// retain rather than one per string and array it holds. Setting a field
/// makes a new reference (results are set up once and rarely changed).
public struct StepResult: Sendable, Codable {
    /// Creates a step result.
    init(
        step: Step, status: StepStatus, duration: UInt64, error: StepError?, match: MatchInfo?, alsoMatched: [MatchInfo],
        didYouMean: MatchInfo? = nil, snippet: String? = nil, attachments: [Attachment] = []
    ) {
        fields = Shared(Fields(
            step: step, status: status, duration: duration, error: error, match: match, alsoMatched: alsoMatched,
            didYouMean: didYouMean, snippet: snippet, attachments: attachments))
    }

    /// The step.
    public var step: Step {
        _read { yield fields.value.step }
        set { fields = fields.changed { $0.step = newValue } }
    }
    /// What happened.
    public var status: StepStatus {
        get { fields.value.status }
        set { fields = fields.changed { $0.status = newValue } }
    }
    /// How long the step ran, in nanoseconds.
    public var duration: UInt64 {
        get { fields.value.duration }
        set { fields = fields.changed { $0.duration = newValue } }
    }
    /// Why the step failed, if it did.
    public var error: StepError? {
        _read { yield fields.value.error }
        set { fields = fields.changed { $0.error = newValue } }
    }
    /// The definition that ran the step (the first that matched).
    public var match: MatchInfo? {
        _read { yield fields.value.match }
        set { fields = fields.changed { $0.match = newValue } }
    }
    /// Other definitions that matched too, in registration order.
    public var alsoMatched: [MatchInfo] {
        _read { yield fields.value.alsoMatched }
        set { fields = fields.changed { $0.alsoMatched = newValue } }
    }
    /// For an undefined step, the definition it was probably meant for.
    public var didYouMean: MatchInfo? {
        _read { yield fields.value.didYouMean }
        set { fields = fields.changed { $0.didYouMean = newValue } }
    }
    /// For an undefined step, the Swift code that would define it, named
    /// for the project's step class (see ``StoryRun/snippet(for:)``).
    public var snippet: String? {
        _read { yield fields.value.snippet }
        set { fields = fields.changed { $0.snippet = newValue } }
    }
    /// What the step attached (`attach(_:mediaType:name:)`, ``log(_:)``)
    /// and what it printed, in order.
    public var attachments: [Attachment] {
        _read { yield fields.value.attachments }
        set { fields = fields.changed { $0.attachments = newValue } }
    }

    /// Calls `body` with the texts the match captured (none without a
    /// match), read in place: a worker writes them into every passing
    /// story's answer, and a copy of the match would retain each of its
    /// strings and arrays.
    func withArguments<Result>(_ body: ([String?]) -> Result) -> Result {
        guard fields.value.match != nil else { return body([]) }
        return body(fields.value.match!.arguments)
    }

    /// Where the match's groups lie (``MatchInfo/spans``), read in place.
    var matchSpans: GroupSpans {
        fields.value.match?.spans ?? .none
    }

    /// The fields, in one shared reference (see ``Shared``).
    private var fields: Shared<Fields>

    /// A result's fields: what it encodes (as the result itself did when
    /// they were its own).
    private struct Fields: Sendable, Codable {
        var step: Step
        var status: StepStatus
        var duration: UInt64
        var error: StepError?
        var match: MatchInfo?
        var alsoMatched: [MatchInfo]
        var didYouMean: MatchInfo?
        var snippet: String?
        var attachments: [Attachment]
    }

    public init(from decoder: any Decoder) throws {
        fields = try Shared(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}

/// A step definition that matched a step, as reports show it.
public struct MatchInfo: Sendable, Codable, Hashable {
    /// The pattern as registered.
    public var pattern: String
    /// Where the definition was registered.
    public var location: SourceLocation
    /// The captured texts.
    public var arguments: [String?]
    /// Where each capture group lies in the step text (``GroupSpans``),
    /// found when the step was matched; none when not known (a merged
    /// report's match, or a worker's that the parent could not check).
    public var spans: GroupSpans = .none
    /// The definition's id in the registry, when known: a worker's results
    /// carry it, and the parent keeps it only for its own definition of
    /// the same pattern (``WorkerClaims``).
    var definitionID: Int?

    private enum CodingKeys: String, CodingKey {
        case pattern, location, arguments, spans, definition
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pattern = try container.decode(String.self, forKey: .pattern)
        location = try container.decode(SourceLocation.self, forKey: .location)
        arguments = try container.decode([String?].self, forKey: .arguments)
        spans = try container.decodeIfPresent([Int32].self, forKey: .spans).flatMap(GroupSpans.init(bounds:)) ?? .none
        definitionID = try container.decodeIfPresent(Int.self, forKey: .definition)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pattern, forKey: .pattern)
        try container.encode(location, forKey: .location)
        try container.encode(arguments, forKey: .arguments)
        if !spans.isEmpty { try container.encode(spans.bounds, forKey: .spans) }
        try container.encodeIfPresent(definitionID, forKey: .definition)
    }

    public static func == (lhs: MatchInfo, rhs: MatchInfo) -> Bool {
        lhs.pattern == rhs.pattern && lhs.location == rhs.location && lhs.arguments == rhs.arguments
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(location)
        hasher.combine(arguments)
    }

    init(_ match: Match) {
        pattern = match.definition.pattern
        location = match.definition.location
        arguments = match.capturedTexts
        spans = match.spans
        definitionID = match.definition.id
    }

    init(_ definition: StepDefinition, arguments: [String?] = [], spans: GroupSpans = .none) {
        pattern = definition.pattern
        location = definition.location
        self.arguments = arguments
        self.spans = spans
        definitionID = definition.id
    }
}

/// Why a step failed.
public struct StepError: Sendable, Codable, Hashable {
    /// The message.
    public var message: String
    /// Where in Swift the failure was raised, when known.
    public var location: SourceLocation?
    /// The kind of error: the Swift type of the error a step threw
    /// (`StoryKit.ExpectationFailure`, `MyApp.PaymentError`); nil when the
    /// failure was not a thrown error (a crash, a time limit).
    public var kind: String?

    /// Creates a step error.
    public init(message: String, location: SourceLocation? = nil, kind: String? = nil) {
        self.message = message
        self.location = location
        self.kind = kind
    }

    /// Describes any error a step threw.
    init(_ error: any Error) {
        let kind = String(reflecting: type(of: error))
        if let located = error as? any LocatedError {
            self.init(message: String(describing: error), location: located.location, kind: kind)
        } else {
            self.init(message: Self.describe(error), kind: kind)
        }
    }

    /// Describes an error that is not an expectation, by its type and its
    /// best description: a `LocalizedError`'s `errorDescription`, an
    /// `NSError`'s `localizedDescription` (never `Error Domain=… "(null)"`),
    /// or the error's own description.
    static func describe(_ error: any Error) -> String {
        let typeName = String(describing: type(of: error))
        let text: String
        if let localized = error as? any LocalizedError, let description = localized.errorDescription {
            text = description
        } else if String(describing: error).hasPrefix("Error Domain=") {
            let error = error as NSError
            text = error.localizedDescription + " (\(error.domain) \(error.code))"
        } else {
            text = String(describing: error)
        }
        return text.hasPrefix(typeName) ? text : "\(typeName): \(text)"
    }
}

/// One test step of a story attempt, in the order it ran: a hook or a
/// story step (Cucumber's test step).
public enum TestStepResult: Sendable, Codable {
    /// A before/after story or step hook.
    case hook(HookResult)
    /// A step of the story.
    case step(StepResult)

    /// What happened.
    public var status: StepStatus {
        switch self {
        case .hook(let hook): hook.status
        case .step(let step): step.status
        }
    }

    /// A story step's status; nil for a hook.
    var stepStatus: StepStatus? {
        switch self {
        case .hook: nil
        case .step(let step): step.status
        }
    }

    /// Why it failed, if it did.
    public var error: StepError? {
        switch self {
        case .hook(let hook): hook.error
        case .step(let step): step.error
        }
    }

    /// How long it ran, in nanoseconds.
    public var duration: UInt64 {
        switch self {
        case .hook(let hook): hook.duration
        case .step(let step): step.duration
        }
    }

    /// What it attached or printed.
    public var attachments: [Attachment] {
        switch self {
        case .hook(let hook): hook.attachments
        case .step(let step): step.attachments
        }
    }

    /// Adds attachments after those it has.
    mutating func attach(_ more: [Attachment]) {
        switch self {
        case .hook(var hook):
            hook.attachments += more
            self = .hook(hook)
        case .step(var step):
            step.attachments += more
            self = .step(step)
        }
    }
}

/// One run of a story that failed and was run again (`--retry`).
public struct StoryAttempt: Sendable, Codable {
    /// What happened: failed, since only failed attempts are retried.
    public var status: StoryStatus
    /// Its test steps, in order.
    public var testSteps: [TestStepResult]
    /// How long it ran, in nanoseconds.
    public var duration: UInt64

    /// Creates an attempt.
    public init(status: StoryStatus, testSteps: [TestStepResult], duration: UInt64) {
        self.status = status
        self.testSteps = testSteps
        self.duration = duration
    }
}

/// The outcome of one story: its last attempt, and any attempts before it.
public struct StoryResult: Sendable, Codable {
    /// The story.
    public var story: Story
    /// What happened.
    public var status: StoryStatus
    /// The last attempt's test steps, in the order they ran: before hooks,
    /// each step wrapped by its step hooks, after hooks.
    public var testSteps: [TestStepResult]
    /// How long the last attempt ran, in nanoseconds.
    public var duration: UInt64
    /// The attempts that failed before the last one (`--retry`), oldest first.
    public var earlierAttempts: [StoryAttempt] = []

    /// Changes the test steps of the last attempt and of each earlier one, in place.
    mutating func changeEveryAttempt(_ change: (inout [TestStepResult]) -> Void) {
        change(&testSteps)
        for index in earlierAttempts.indices { change(&earlierAttempts[index].testSteps) }
    }
    /// Set when the run was interrupted (SIGINT, SIGTERM) while the story ran.
    public var wasInterrupted = false

    /// The story's steps' outcomes, in order (no hooks).
    public var steps: [StepResult] {
        var steps: [StepResult] = []
        steps.reserveCapacity(testSteps.count)
        for case .step(let step) in testSteps { steps.append(step) }
        return steps
    }

    /// The hooks that ran around the story and its steps, in order.
    public var hooks: [HookResult] {
        testSteps.compactMap { if case .hook(let hook) = $0 { hook } else { nil } }
    }

    /// The test step that failed first, if any.
    public var firstFailure: TestStepResult? {
        testSteps.first { $0.status == .failed || $0.status == .ambiguous }
    }

    /// How many times the story ran: more than 1 with `--retry`.
    public var attempts: Int { earlierAttempts.count + 1 }

    /// Whether the story passed only when it was run again (`--retry`).
    public var isFlaky: Bool { status == .passed && attempts > 1 }

    /// Creates a story result from its test steps.
    public init(story: Story, status: StoryStatus, testSteps: [TestStepResult], duration: UInt64, earlierAttempts: [StoryAttempt] = []) {
        self.story = story
        self.status = status
        self.testSteps = testSteps
        self.duration = duration
        self.earlierAttempts = earlierAttempts
    }

    /// Creates a story result from steps, with the hooks before them.
    public init(story: Story, status: StoryStatus, steps: [StepResult], duration: UInt64, hooks: [HookResult] = []) {
        self.init(story: story, status: status, testSteps: hooks.map { .hook($0) } + steps.map { .step($0) }, duration: duration)
    }
}

/// Printed and dumped field by field, as before its fields were shared.
extension StepResult: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: fields.value).children, displayStyle: .struct)
    }
}
