/// Matches steps against a registry, remembering the answer for each distinct
/// step line and which definitions were used.
struct CachingMatcher {
    let registry: StepRegistry
    /// Results by step line (keyword and text).
    private var cache: [String: MatchResult] = [:]
    /// The ids of the definitions that won a match.
    private(set) var usedDefinitions: Set<Int> = []

    init(registry: StepRegistry) {
        self.registry = registry
    }

    /// The most step lines remembered; past it the cache starts afresh, so
    /// memory stays flat however many distinct steps a run has.
    static let capacity = 20_000


    /// Returns every definition that matches the step, in registration order.
    mutating func matches(_ step: Step) -> MatchResult {
        // A step with a doc string or table is not cached: its inputs carry it.
        let line = step.line
        guard step.attachment == nil else { return record(registry.matches(step, line: line)) }
        if let cached = cache[line] { return cached }
        let result = record(registry.matches(step, line: line))
        if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
        cache[line] = result
        return result
    }

    private mutating func record(_ result: MatchResult) -> MatchResult {
        if let winner = result.winner { usedDefinitions.insert(winner.definition.id) }
        return result
    }
}
