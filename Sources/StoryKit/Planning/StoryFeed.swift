import Foundation

/// Reads, parses, filters and matches story files on a thread of its own, a
/// few files ahead of the runner, so the runner's thread only runs steps.
///
/// Parsing and matching are pure (the registry is frozen), so they can run
/// beside the steps without touching user code. Files come back in order,
/// each with its diagnostics and its chosen stories; at most `lookahead`
/// files wait at a time, so memory stays flat however large the suite.
final class StoryFeed: @unchecked Sendable {
    // Unchecked: `ready`, `registry`, `isFinished` and `isStopped` are read
    // and written only under `condition`; everything else is set before the
    // thread starts.

    /// Stories of one file, parsed: those the filter chose, each with the
    /// definitions that match its steps, and (with a file's first batch)
    /// the problems found in the file. A file comes in batches, so the
    /// runner can start on its first stories while the rest are matched.
    struct Batch: Sendable {
        var path: String
        var stories: [PlannedStory]
        var diagnostics: [Diagnostic]
    }

    /// How many stories a batch holds at most.
    static let batchSize = 64

    private let files: [String]
    private let filter: StoryFilter
    private let matchesSteps: Bool
    private let lookahead: Int
    private let condition = NSCondition()
    private var registry: StepRegistry?
    private var ready: [Batch] = []
    private var isFinished = false
    private var isStopped = false

    /// Starts reading the files at once: parsing needs no step definitions,
    /// so it goes on while the step classes register.
    /// - Parameters:
    ///   - files: The story files, in the order they run.
    ///   - filter: Which stories to keep.
    ///   - matchesSteps: Whether to match the steps, against the registry
    ///     given to ``match(with:)``; when false the stories come unmatched
    ///     (their runner matches them elsewhere).
    ///   - lookahead: How many batches may wait for the runner.
    init(files: [String], filter: StoryFilter, matchesSteps: Bool, lookahead: Int = 32) {
        self.files = files
        self.filter = filter
        self.matchesSteps = matchesSteps
        self.lookahead = max(1, lookahead)
        let thread = Thread { [self] in produce() }
        thread.name = "storyrun feed"
        thread.start()
    }

    /// Gives the feed the frozen registry to match steps against.
    func match(with registry: StepRegistry) {
        condition.lock()
        self.registry = registry
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, waiting for it if it is not ready; nil after the last.
    func next() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !isFinished { condition.wait() }
        guard !ready.isEmpty else { return nil }
        let batch = ready.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Stops reading files (after `--fail-fast`, or when the run cannot start).
    func stop() {
        condition.lock()
        isStopped = true
        ready = []
        condition.broadcast()
        condition.unlock()
    }

    private func produce() {
        var matcher: CachingMatcher?
        files: for path in files {
            let (stories, diagnostics) = StoryLoader.parseFile(at: path)
            let chosen = stories.filter(filter.includes)
            if matchesSteps && matcher == nil {
                guard let registry = waitForRegistry() else { break }
                matcher = CachingMatcher(registry: registry)
            }
            var start = 0
            repeat {
                let end = min(start + Self.batchSize, chosen.count)
                var planned: [PlannedStory] = []
                planned.reserveCapacity(end - start)
                for story in chosen[start..<end] {
                    var matches: [MatchResult]?
                    if matcher != nil { matches = story.steps.map { matcher!.matches($0) } }
                    planned.append(PlannedStory(story: story, matches: matches))
                }
                guard hand(Batch(path: path, stories: planned, diagnostics: start == 0 ? diagnostics : [])) else { break files }
                start = end
            } while start < chosen.count
        }
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for ``match(with:)``; nil when the feed is stopped first.
    private func waitForRegistry() -> StepRegistry? {
        condition.lock()
        defer { condition.unlock() }
        while registry == nil && !isStopped { condition.wait() }
        return isStopped ? nil : registry
    }

    /// Hands a batch to the runner, waiting while too many wait; false
    /// when the feed is stopped.
    private func hand(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= lookahead && !isStopped { condition.wait() }
        guard !isStopped else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }
}

/// A story to run, with the definitions that match each of its steps when
/// they are already known.
struct PlannedStory: Sendable {
    var story: Story
    /// One result per step, in order; nil when the runner still has to match.
    var matches: [MatchResult]?
}
