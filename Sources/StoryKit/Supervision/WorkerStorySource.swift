#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A story a worker was asked to run, read and matched ahead; nil when the
/// file no longer has a story at that line.
struct WorkerStory: Sendable {
    var sequence: UInt64
    var planned: PlannedStory?
    var attemptsUsed = 0
    var path = ""
    var line = 0
    /// A story starts at that line, but not the one the parent planned.
    var isChanged = false
    /// The file could not be read for want of descriptors or memory (this
    /// `errno`): the story may be there, unchanged.
    var outOfResources: Int32?
    /// Then, the stories the worker ran since it last opened a story file,
    /// but for `cutSuspects` of them after the first.
    var suspects: [StorySource.Suspect] = []
    var cutSuspects = 0
}

/// Reads a worker's requests and makes each a story to run, its steps
/// matched unless matching runs user code (which stays on the runner's
/// thread).
final class StorySource: @unchecked Sendable {
    // Unchecked: used by one thread at a time (the reading thread, or the
    // runner's when there is none).
    private var files = StoryFiles()
    private var matcher: CachingMatcher?
    private var reader = LineReader(descriptor: WorkerMain.requests)
    private let position: SharedPosition

    /// A story a worker may have run when it ran out of descriptors.
    struct Suspect: Sendable, CustomStringConvertible {
        var sequence: UInt64
        var name: String
        var location: SourceLocation
        var description: String { "\"\(name)\" (\(location.fileAndLine))" }
    }
    /// The stories handed out that had not started when a story file last
    /// opened, oldest first: when none can be opened, those started since
    /// are the suspects. At most 4,096 (a file of 100,000 stories opens
    /// once): beyond, 2,048 after the oldest go, counted in `cut` until a
    /// file opens after they started.
    private var handedOut: [Suspect] = []
    private var cut = 0

    init(registry: StepRegistry, position: SharedPosition) {
        matcher = registry.matchingRunsUserCode ? nil : CachingMatcher(registry: registry)
        self.position = position
    }

    /// The last request's path, as sent and decoded: a batch's stories
    /// mostly share their file.
    private var lastPath: (bytes: [UInt8], path: String) = ([], "")

    func next() -> WorkerStory? {
        while let read = reader.nextLine({ line -> (sequence: UInt64, line: Int, attemptsUsed: Int, fingerprint: UInt64, path: String)? in
            guard let request = WorkerWire.parseRequest(bytes: line) else { return nil }
            // By memcmp: a request names its path, nearly always the last one.
            let isSame = lastPath.bytes.count == request.path.count
                && (request.path.isEmpty
                    || lastPath.bytes.withUnsafeBytes { memcmp($0.baseAddress!, request.path.baseAddress!, request.path.count) == 0 })
            if !isSame {
                lastPath = (Array(request.path), WorkerWire.path(request.path))
            }
            return (request.sequence, request.line, request.attemptsUsed, request.fingerprint, lastPath.path)
        }) {
            guard let request = read else { continue }
            let found: Story?
            do throws(RegularFile.Failure) {
                let opened = files.opened
                found = try files.story(at: request.line, in: request.path)
                // Those that had ended by then are cleared, unless the
                // file opened with few descriptors to spare.
                if files.opened != opened, let started = position.lastStarted, DescriptorCensus.canOpen(16) {
                    let ended = handedOut.firstIndex { $0.sequence >= started } ?? handedOut.count
                    handedOut.removeFirst(ended)
                    if ended > 0 { cut = 0 }
                }
            } catch {
                let started = position.lastStarted
                return WorkerStory(
                    sequence: request.sequence, planned: nil, path: request.path, line: request.line, outOfResources: error.outOfResources,
                    suspects: handedOut.filter { suspect in started.map { suspect.sequence <= $0 } ?? false }, cutSuspects: cut)
            }
            guard let story = found else {
                return WorkerStory(sequence: request.sequence, planned: nil, path: request.path, line: request.line)
            }
            // The file changed after the parent read it: what it planned
            // and will report is not what this story would run.
            guard WorkerWire.fingerprint(of: story) == request.fingerprint else {
                return WorkerStory(sequence: request.sequence, planned: nil, path: request.path, line: request.line, isChanged: true)
            }
            var matches: [MatchResult]?
            if matcher != nil { matches = story.steps.map { matcher!.matches($0) } }
            if handedOut.count == 4096 {
                handedOut.removeSubrange(1...2048)
                cut += 2048
            }
            handedOut.append(Suspect(sequence: request.sequence, name: story.name, location: story.location))
            return WorkerStory(sequence: request.sequence, planned: PlannedStory(story: story, matches: matches), attemptsUsed: request.attemptsUsed)
        }
        return nil
    }
}

/// The stories of the files a worker has read lately, by line.
struct StoryFiles {
    private var files: [String: [Int: Story]] = [:]
    private var order: [String] = []
    /// How many files with stories it has read: each had a descriptor.
    private(set) var opened = 0

    /// The story at `line` of the file, nil when none starts there; throws
    /// when the file could not be read for want of descriptors or memory
    /// (see ``StoryLoader/parseFileUnlessOutOfResources(at:)``), which is
    /// not kept: the file is read again when asked again.
    mutating func story(at line: Int, in path: String) throws(RegularFile.Failure) -> Story? {
        if let stories = files[path] { return stories[line] }
        var stories: [Int: Story] = [:]
        for story in try StoryLoader.parseFileUnlessOutOfResources(at: path).stories { stories[story.location.line] = story }
        if !stories.isEmpty { opened += 1 }
        files[path] = stories
        order.append(path)
        if order.count > 8 { files[order.removeFirst()] = nil }
        return stories[line]
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
    private let position: SharedPosition
    private let outbox: WorkerOutbox
    private let spent = Spent<WorkerStory>()
    private var spentHere: [WorkerStory] = []
    private var isReading = false

    init(source: StorySource, position: SharedPosition, outbox: WorkerOutbox) {
        self.source = source
        self.position = position
        self.outbox = outbox
    }

    /// Starts the reading thread.
    func start() {
        let (source, ahead, spent, position) = (source, ahead, spent, position)
        isReading = Threads.start {
            while let story = source.next() {
                spent.free()
                // A file it could not open for want of descriptors or
                // memory: the step thread stops at its next story, not
                // after those read before, and this one reads no more.
                // Unless the worker has run no story yet (a before-run hook
                // used them up): then each story fails with the reason, here,
                // rather than each costing a new worker that fails the same.
                if story.outOfResources != nil, position.lastStarted != nil {
                    ahead.putFirst(story)
                    break
                }
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
