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
final class StorySource: @unchecked Sendable {
    // Unchecked: used by one thread at a time (the reading thread, or the
    // runner's when there is none).
    private var requests = StoryRequests()
    private var matcher: CachingMatcher?
    private var reader = LineReader(descriptor: WorkerMain.requests)

    init(registry: StepRegistry) {
        matcher = registry.matchingRunsUserCode ? nil : CachingMatcher(registry: registry)
    }

    func next() -> WorkerStory? {
        while let read = reader.nextLine({ requests.read($0) }) {
            guard let request = read else { continue }
            var matches: [MatchResult]?
            if matcher != nil { matches = request.story.steps.map { matcher!.matches($0) } }
            return WorkerStory(
                sequence: request.sequence, planned: PlannedStory(story: request.story, matches: matches), attemptsUsed: request.attemptsUsed)
        }
        return nil
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
