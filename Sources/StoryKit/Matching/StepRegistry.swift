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
    /// The expressions left out because they name a parameter type nobody
    /// defined, in registration order.
    let undefinedParameterTypes: [UndefinedParameterType]
    /// Whether matching a step may call the user's code: the conversions of
    /// parameter types the step classes defined. Such matching stays on the
    /// runner's thread, when the story runs.
    let matchingRunsUserCode: Bool
    /// Made when a step is first matched: a supervised run's parent never
    /// matches, so it never pays for the index.
    private let index: LazyIndex
    /// What undefined steps are told, made when the first one asks.
    let undefinedStepAdvice: UndefinedStepAdvice

    init(
        definitions: [StepDefinition], hooks: [Hook] = [], parameterTypes: [ParameterType] = [], matchingRunsUserCode: Bool = false,
        undefinedParameterTypes: [UndefinedParameterType] = []
    ) {
        self.definitions = definitions
        self.hooks = hooks
        self.undefinedParameterTypes = undefinedParameterTypes
        self.parameterTypes = parameterTypes
        self.matchingRunsUserCode = matchingRunsUserCode
        index = LazyIndex(definitions: definitions)
        undefinedStepAdvice = UndefinedStepAdvice(definitions: definitions)
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
        index.forEachCandidate(line: line, text: text) { id in
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
            .map { Match(definition: definition, inputs: $0.inputs, capturedTexts: $0.texts, spans: $0.spans) }
    }
}

/// The candidates for a step: a ``PrefixScan`` for the first few lookups,
/// then a ``PatternIndex``, each made once, whichever thread asks.
///
/// Both give every definition that may match, in registration order, so
/// the answers do not depend on which one a lookup used.
private final class LazyIndex: @unchecked Sendable {
    // Unchecked: the fields below `lock` are read and written only under it.
    private let lock = NSLock()
    private let definitions: [StepDefinition]
    private var built: PatternIndex?
    private var scan: PrefixScan?
    /// The lookups the scan has answered; nil before the first lookup,
    /// which decides whether there is a scan.
    private var scanned: Int?

    init(definitions: [StepDefinition]) {
        self.definitions = definitions
    }

    /// How many lookups the scan answers before the index is built: the
    /// index costs about a microsecond per definition to build (1.2 ms for
    /// 1,000), a scan lookup a few nanoseconds per definition plus the
    /// candidates its prefixes let through (often more than the index's),
    /// so a run that matches more steps than this soon earns the index back.
    static let scannedLookups = 16

    /// Calls `body` with the id of each definition that may match the step
    /// line or its text, in registration order, each once.
    func forEachCandidate(line: String, text: String, _ body: (Int) -> Void) {
        switch next() {
        case .index(let index): index.forEachCandidate(forLine: line, body)
        case .scan(let scan): scan.forEachCandidate(line: line, text: text, body)
        }
    }

    private enum Finder {
        case index(PatternIndex)
        case scan(PrefixScan)
    }

    /// What answers this lookup; counts it.
    private func next() -> Finder {
        lock.lock()
        defer { lock.unlock() }
        if let built { return .index(built) }
        if scanned == nil {
            scan = PrefixScan.pays(for: definitions) ? PrefixScan(definitions: definitions) : nil
            scanned = 0
        }
        if let scan, let count = scanned, count < Self.scannedLookups {
            scanned = count + 1
            return .scan(scan)
        }
        scan = nil
        let made = PatternIndex(definitions: definitions)
        built = made
        return .index(made)
    }
}
