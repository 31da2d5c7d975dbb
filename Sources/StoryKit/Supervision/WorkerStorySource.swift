import Foundation

/// A story a worker was asked to run, as the parent planned it, matched
/// ahead unless matching runs user code.
struct WorkerStory: Sendable {
    var sequence: UInt64
    var planned: PlannedStory
    var attemptsUsed = 0
}

/// Reads a worker's requests and makes each a story to run, its steps
/// matched unless matching runs user code (which stays on the runner's
/// thread). The stories come whole from the parent: no story file is read.
/// A long story's steps are matched a part at a time as its lines come, so
/// matching it goes on while the parent still writes the rest; it is
/// handed on once all are there and matched (the runner has every match
/// before it starts).
final class StorySource: @unchecked Sendable {
    // Unchecked: used by one thread at a time (the reading thread, or the
    // runner's when there is none).
    private var requests = StoryRequests()
    private var matcher: CachingMatcher?
    private var reader = LineReader(descriptor: WorkerMain.requests)
    /// The matches of the story being read, so far.
    private var matches: [MatchResult] = []

    init(registry: StepRegistry) {
        matcher = registry.matchingRunsUserCode ? nil : CachingMatcher(registry: registry)
    }

    func next() -> WorkerStory? {
        while let read = reader.nextLine({ requests.read($0) { match($0) } }) {
            guard let request = read else { continue }
            var matched: [MatchResult]?
            if matcher != nil {
                matched = matches
                matches = []
            }
            return WorkerStory(
                sequence: request.sequence, planned: PlannedStory(story: request.story, matches: matched), attemptsUsed: request.attemptsUsed)
        }
        return nil
    }

    /// Matches a line's steps; a story's first steps start its matches
    /// anew (those of a story refused before its end are dropped).
    private func match(_ steps: ArraySlice<Step>) {
        guard matcher != nil else { return }
        if steps.startIndex == 0 {
            matches.removeAll()
            matches.reserveCapacity(steps.count)
        }
        for step in steps { matches.append(matcher!.matches(step)) }
    }
}

/// The stories a worker is sent, read and matched a few batches ahead of
/// the one running, on a thread of its own, as a run's feed does, so the
/// step thread only runs steps (without a thread to spare, the step thread
/// reads them as it goes). Stories run go back to the reading thread, which
/// made them, to be freed (see ``Spent``), a batch at a time.
final class AheadReader {
    let ahead = HandOff<WorkerStory>(capacity: 256)
    private let source: StorySource
    private let outbox: WorkerOutbox
    private let spent = Spent<WorkerStory>()
    private var spentHere: [WorkerStory] = []
    private var isReading = false

    init(source: StorySource, outbox: WorkerOutbox) {
        self.source = source
        self.outbox = outbox
    }

    /// Starts the reading thread.
    func start() {
        let (source, ahead, spent) = (source, ahead, spent)
        isReading = Threads.start {
            while let story = source.next() {
                spent.free()
                ahead.put(story)
            }
            ahead.finish()
            // Stories that come back after this thread stops waiting are
            // freed by the step thread.
            while spent.waitAndFree() {}
            spent.close()
        }
        if !isReading { spent.close() }
    }

    /// The next story sent; nil once the requests end. What waits in the
    /// outbox goes before the worker waits for stories.
    func next() -> WorkerStory? {
        guard isReading else {
            outbox.flush()
            return source.next()
        }
        return ahead.take(beforeWaiting: outbox.flush)
    }

    /// A story done with, to be freed on the thread that made it.
    func recycle(_ story: WorkerStory) {
        spentHere.append(story)
        if spentHere.count == 64 {
            spent.add(contentsOf: spentHere)
            spentHere = []
        }
    }
}
