import Synchronization
import Foundation

/// Reads, parses, filters and matches story files ahead of the runner, on
/// threads of their own (one parses, one matches), so the runner's thread
/// only runs steps.
///
/// Parsing and matching are pure (the registry is frozen), so they can run
/// beside the steps without touching user code. Stories come back in file
/// order, in batches, each file's problems with its first batch; a few
/// files and batches wait at a time, so memory stays flat however large
/// the suite. Batches the runner is done with go back to the parsing
/// thread (``recycle(_:)``), which frees them: freeing thousands of
/// stories is work the runner's thread need not do.
final class StoryFeed: Sendable {
    /// Stories of one file, parsed: those the filter chose, each with the
    /// definitions that match its steps, and (with a file's first batch)
    /// the problems found in the file. A file comes in batches, so the
    /// runner can start on its first stories while the rest are matched.
    struct Batch: Sendable {
        var path: String
        var stories: [PlannedStory]
        var diagnostics: [Diagnostic]
    }

    /// A file the parsing thread has read, on its way to the matching thread.
    private struct ParsedFile: Sendable {
        var path: String
        var stories: [Story]
        var diagnostics: [Diagnostic]
    }

    /// How many stories a batch holds at most.
    static let batchSize = 64

    private let parsed = HandOff<ParsedFile>(capacity: 2)
    private let ready: HandOff<Batch>
    /// Holds the registry once ``match(with:)`` gives it.
    private let registry = HandOff<StepRegistry>(capacity: 1)
    /// Batches the runner is done with, for the parsing thread to free.
    private let spent = Spent<Batch>()
    /// The text and syntax tree of the files read last, for the reports
    /// (see ``StoryFileInfo``); nil when no report reads story files.
    let parses: RecentParses?

    /// Stories chosen by line (`file:line`, a rerun file's entries) that
    /// `--name`, `--tags` or `--shard` then left out.
    let byLine = LineTally()

    /// Starts reading the files at once: parsing needs no step definitions,
    /// so it goes on while the step classes register.
    /// - Parameters:
    ///   - files: The story files, in the order they run.
    ///   - filter: Which stories to keep.
    ///   - matchesSteps: Whether to match the steps, against the registry
    ///     given to ``match(with:)``; when false, or when matching would run
    ///     the user's code, the stories come unmatched (their runner matches
    ///     them).
    ///   - lookahead: How many batches may wait for the runner.
    ///   - keepsParses: Whether to keep the files' text and syntax trees a
    ///     while, in ``parses``, for reports that read story files.
    ///   - keepsOnlyRowFiles: Whether those are only the files that hold
    ///     an outline's rows (see ``RecentParses/keepsOnlyRowFiles``).
    init(
        files: [String], filter: StoryFilter, matchesSteps: Bool, lookahead: Int = 32, keepsParses: Bool = false,
        keepsOnlyRowFiles: Bool = false
    ) {
        ready = HandOff(capacity: lookahead)
        let parses = keepsParses ? RecentParses(keepsOnlyRowFiles: keepsOnlyRowFiles) : nil
        self.parses = parses
        let matching = Threads.start { [parsed, ready, registry] in
            Self.match(parsed, with: matchesSteps ? registry.take() : nil, into: ready, matchesSteps: matchesSteps)
        }
        guard matching else {
            ready.put(Batch(path: "", stories: [], diagnostics: [Threads.cannotStart("match story files")]))
            ready.finish()
            return
        }
        let parsing = Threads.start { [parsed, spent, byLine] in
            Self.parse(files, filter: filter, into: parsed, freeing: spent, keepingIn: parses, tally: byLine)
        }
        guard parsing else {
            // The matching thread hands the problem on, then ends.
            parsed.put(ParsedFile(path: "", stories: [], diagnostics: [Threads.cannotStart("read story files")]))
            parsed.finish()
            return
        }
    }

    /// Gives the feed the frozen registry to match steps against.
    func match(with registry: StepRegistry) {
        self.registry.put(registry)
    }

    /// The next batch, waiting for it if it is not ready; nil after the last.
    func next() -> Batch? {
        ready.take()
    }

    /// Takes back a batch the runner has run, for another thread to free.
    func recycle(_ batch: consuming Batch) {
        spent.add(batch)
    }

    /// Stops reading files (after `--fail-fast`, or when the run cannot start).
    func stop() {
        registry.cancel()
        parsed.cancel()
        ready.cancel()
    }

    /// A feed dropped before its end lets its threads go.
    deinit {
        stop()
    }

    private static func parse(
        _ files: [String], filter: StoryFilter, into parsed: HandOff<ParsedFile>, freeing spent: Spent<Batch>,
        keepingIn parses: RecentParses?, tally: LineTally
    ) {
        defer { spent.close() }
        for path in files {
            spent.free()
            var (stories, diagnostics) = parses.map { StoryLoader.parseFile(at: path, keepingIn: $0) } ?? StoryLoader.parseFile(at: path)
            if let lines = filter.lines[path], diagnostics.allSatisfy({ !$0.isError }) || !stories.isEmpty {
                let chosen = LineSelection.select(lines, in: path, stories: stories)
                stories = chosen.stories
                diagnostics += chosen.diagnostics
            }
            let included = stories.filter(filter.includes)
            if filter.lines[path] != nil, included.count < stories.count {
                tally.add(leftOut: stories.filter { !filter.includes($0) }.map(\.location))
            }
            guard parsed.put(ParsedFile(path: path, stories: included, diagnostics: diagnostics))
            else { return }
        }
        parsed.finish()
        // Go on freeing what the runner hands back while it keeps coming.
        while spent.waitAndFree() {}
    }

    private static func match(
        _ parsed: HandOff<ParsedFile>, with registry: StepRegistry?, into ready: HandOff<Batch>, matchesSteps: Bool
    ) {
        // A feed stopped before it had the registry matches nothing.
        guard registry != nil || !matchesSteps else { return }
        // The user's parameter type conversions run when the story runs, on
        // the runner's thread, as they always have: such stories come unmatched.
        var matcher = registry.flatMap { $0.matchingRunsUserCode ? nil : CachingMatcher(registry: $0) }
        while let file = parsed.take() {
            var start = 0
            repeat {
                let end = min(start + batchSize, file.stories.count)
                var planned: [PlannedStory] = []
                planned.reserveCapacity(end - start)
                for story in file.stories[start..<end] {
                    var matches: [MatchResult]?
                    if matcher != nil { matches = story.steps.map { matcher!.matches($0) } }
                    planned.append(PlannedStory(story: story, matches: matches))
                }
                guard ready.put(Batch(path: file.path, stories: planned, diagnostics: start == 0 ? file.diagnostics : []))
                else { return }
                start = end
            } while start < file.stories.count
        }
        ready.finish()
    }
}

/// A story to run, with the definitions that match each of its steps when
/// they are already known.
struct PlannedStory: Sendable {
    var story: Story
    /// One result per step, in order; nil when the runner still has to match.
    var matches: [MatchResult]?
}

/// The stories chosen by line (`file:line`, a rerun file's entries) that
/// a filter left out; written by the parsing thread, read once the run is
/// over.
final class LineTally: Sendable {
    private let leftOut = Mutex<[SourceLocation]>([])

    func add(leftOut more: [SourceLocation]) {
        leftOut.withLock { $0 += more }
    }

    /// Where the stories left out are.
    var total: [SourceLocation] { leftOut.withLock { $0 } }
}
