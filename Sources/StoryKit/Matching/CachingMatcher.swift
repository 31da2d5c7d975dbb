/// Matches steps against a registry, remembering the answer for each distinct
/// step line.
///
/// Suites repeat their step lines, and a cached answer skips the index and
/// the regexes. When a run's lines almost never repeat (every step carries
/// new numbers, say), hashing and storing them is pure cost, so the cache
/// steps aside after a sample shows too few hits.
struct CachingMatcher {
    let registry: StepRegistry
    /// Results by step line (keyword and text).
    private var cache: [String: MatchResult] = [:]
    private var lookups = 0
    private var hits = 0
    private(set) var isCaching = true

    init(registry: StepRegistry) {
        self.registry = registry
    }

    /// The most step lines remembered; past it the cache starts afresh, so
    /// memory stays flat however many distinct steps a run has.
    static let capacity = 20_000
    /// How many lookups make the sample that decides whether caching pays.
    static let sampleSize = 2_000
    /// Below this share of hits in the sample, the cache steps aside:
    /// hashing and storing every line costs about what the hits save when
    /// a quarter to a third of lines repeat (the bench's rich corpus, where
    /// each Background step repeats and the rest do not, ran 14% faster
    /// without the cache than with it at the 5% this once was).
    static let minimumHitRate = 0.3

    /// Returns every definition that matches the step, in registration order.
    mutating func matches(_ step: Step) -> MatchResult {
        let line = step.line
        // A step with a doc string or table is not cached: its inputs carry it.
        guard isCaching, step.attachment == nil else { return registry.matches(step, line: line) }
        lookups += 1
        if let cached = cache[line] {
            hits += 1
            return cached
        }
        if lookups == Self.sampleSize, Double(hits) < Double(lookups) * Self.minimumHitRate {
            isCaching = false
            cache = [:]
        }
        let result = registry.matches(step, line: line)
        guard isCaching else { return result }
        if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
        cache[line] = result
        return result
    }
}
