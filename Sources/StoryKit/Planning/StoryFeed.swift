import Foundation

/// Reads, parses, filters and matches story files on a thread of its own, a
/// few files ahead of the runner, so the runner's thread only runs steps.
///
/// Parsing and matching are pure (the registry is frozen), so they can run
/// beside the steps without touching user code. Files come back in order,
/// each with its diagnostics and its chosen stories; at most `lookahead`
/// files wait at a time, so memory stays flat however large the suite.
final class StoryFeed: @unchecked Sendable {
    // Unchecked: `ready`, `isFinished` and `isStopped` are read and written
    // only under `condition`; everything else is set before the thread starts.

    /// One file, parsed: its stories that the filter chose, each with the
    /// definitions that match its steps, and the problems found in it.
    struct File: Sendable {
        var path: String
        var stories: [PlannedStory]
        var diagnostics: [Diagnostic]
    }

    private let files: [String]
    private let filter: StoryFilter
    private let registry: StepRegistry?
    private let lookahead: Int
    private let condition = NSCondition()
    private var ready: [File] = []
    private var isFinished = false
    private var isStopped = false

    /// Starts reading the files.
    /// - Parameters:
    ///   - files: The story files, in the order they run.
    ///   - filter: Which stories to keep.
    ///   - registry: The definitions to match steps against; nil to leave
    ///     the stories unmatched (their runner matches them elsewhere).
    ///   - lookahead: How many parsed files may wait for the runner.
    init(files: [String], filter: StoryFilter, registry: StepRegistry?, lookahead: Int = 2) {
        self.files = files
        self.filter = filter
        self.registry = registry
        self.lookahead = max(1, lookahead)
        let thread = Thread { [self] in produce() }
        thread.name = "storyrun feed"
        thread.start()
    }

    /// The next file, waiting for it if it is not parsed yet; nil after the last.
    func next() -> File? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !isFinished { condition.wait() }
        guard !ready.isEmpty else { return nil }
        let file = ready.removeFirst()
        condition.broadcast()
        return file
    }

    /// Stops reading files (after `--fail-fast` has stopped the run).
    func stop() {
        condition.lock()
        isStopped = true
        ready = []
        condition.broadcast()
        condition.unlock()
    }

    private func produce() {
        var matcher = registry.map(CachingMatcher.init)
        for path in files {
            let (stories, diagnostics) = StoryLoader.parseFile(at: path)
            var planned: [PlannedStory] = []
            for story in stories where filter.includes(story) {
                var matches: [MatchResult]?
                if matcher != nil { matches = story.steps.map { matcher!.matches($0) } }
                planned.append(PlannedStory(story: story, matches: matches))
            }
            let file = File(path: path, stories: planned, diagnostics: diagnostics)
            condition.lock()
            while ready.count >= lookahead && !isStopped { condition.wait() }
            let stopped = isStopped
            if !stopped { ready.append(file) }
            condition.broadcast()
            condition.unlock()
            if stopped { break }
        }
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }
}

/// A story to run, with the definitions that match each of its steps when
/// they are already known.
struct PlannedStory: Sendable {
    var story: Story
    /// One result per step, in order; nil when the runner still has to match.
    var matches: [MatchResult]?
}
