#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The worker side of a supervised run: this executable again, started by
/// its parent with `--worker`, running the stories the parent names.
///
/// Its descriptors: 0 is /dev/null, 1 and 2 the capture file, 3 the
/// parent's requests, 4 its messages to the parent, 5 the shared page (see
/// ``WorkerWire``, ``SharedPosition``, ``OutputCapture``).
enum WorkerMain {
    static let requests: Int32 = 3
    static let messages: Int32 = 4
    static let position: Int32 = 5

    /// Runs the stories its parent sends until the requests end; then the
    /// after-run hooks, and exits.
    static func run(registry: StepRegistry, configuration: Runner.Configuration, clock: @escaping @Sendable () -> UInt64) async -> ExitStatus {
        // Nothing the steps start inherits the parent's channels.
        for descriptor in [requests, messages, position] { Descriptors.closeOnExec(descriptor) }
        guard let shared = SharedPosition.map(fileDescriptor: position) else {
            FileHandle.standardError.write(Data("storyrun: --worker is started by storyrun itself, not by hand\n".utf8))
            return .inputError
        }
        #if !DEBUG
        // Code built for release traps with no stack printed (and, for an
        // index out of range, with no message at all): the worker prints
        // the stack itself, for its parent to name the user's line. A
        // debug build's runtime prints its own. (A forked worker has the
        // handler already; installing it again changes nothing.)
        CrashTrace.install()
        #endif
        // Orphans of what the steps start come to this process, not its
        // parent's: it ends them all before it says it is done.
        Orphans.adopt()
        let outbox = WorkerOutbox(position: shared, descriptor: messages)
        // Stories read and matched ahead of the one running (see below).
        let ahead = HandOff<WorkerStory>(capacity: 256)
        Lifeline.start(outbox: outbox) { giveBack(from: ahead, position: shared, outbox: outbox) }
        let probe = WorkerProbe(position: shared, capture: OutputCapture(file: STDOUT_FILENO))
        var runner = Runner(registry: registry, configuration: configuration, probe: probe, now: clock)
        var sequence: UInt64 = 0
        let compact = !registry.matchingRunsUserCode
        func hookIndex(_ hook: HookResult) -> Int? {
            registry.hooks.firstIndex { $0.kind.rawValue == hook.kind && $0.location == hook.location }
        }
        var line: [UInt8] = []
        func forward(_ event: RunEvent) {
            switch event {
            case .storyFinished(let result):
                // Before its line: the parent takes an answer only for a
                // story that got this far.
                shared.finishStory(sequence)
                // A passing story's compact line waits for the next batch.
                if compact, WorkerWire.passedLine(sequence: sequence, result: result, hookIndex: hookIndex, into: &line) {
                    outbox.add(line)
                } else {
                    outbox.send(WorkerWire.line(sequence: sequence, result: result, hookIndex: hookIndex, compact: false))
                }
            case .diagnostic(let diagnostic): outbox.send(WorkerWire.line(.diagnostic(diagnostic)))
            case .runHookFinished(let hook): outbox.send(WorkerWire.line(.runHook(hook)))
            case .runStarted, .storyStarted, .stepStarted, .stepFinished, .runFinished, .storyFileRejected: break
            }
        }
        shared.enter(.beforeRun)
        await runner.begin(emit: forward)
        shared.enter(.stories)
        outbox.send(WorkerWire.line(.ready))
        PhaseTimer.mark("ready")

        // A thread of its own reads the requests, parses their files and
        // matches their steps a few batches ahead, as a run's feed does, so
        // this thread only runs steps (without a thread to spare, this one
        // reads them as it goes).
        let source = StorySource(registry: registry, position: shared)
        // Stories run go back to the reading thread, which made them, to be
        // freed (see ``Spent``), a batch at a time.
        let spent = Spent<WorkerStory>()
        var spentHere: [WorkerStory] = []
        let reading = Threads.start {
            while let story = source.next() {
                spent.free()
                // A file it could not open for want of descriptors or
                // memory: the step thread stops at its next story, not
                // after those read before, and this one reads no more.
                // Unless the worker has run no story yet (a before-run hook
                // used them up): then each story fails with the reason, here,
                // rather than each costing a new worker that fails the same.
                if story.outOfResources != nil, shared.lastStarted != nil {
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
        if !reading { spent.close() }
        // What waits in the outbox goes before the worker waits for stories.
        func nextStory() -> WorkerStory? {
            guard reading else {
                outbox.flush()
                return source.next()
            }
            return ahead.take(beforeWaiting: outbox.flush)
        }
        // Whether this worker has started a story.
        var hasRun = false
        // A before-run hook failed: no story runs. Those sent stay
        // unanswered; the parent, told of the hook, sends no more and
        // counts them not run.
        while !runner.hasFailedBeforeRun, let next = nextStory() {
            defer {
                spentHere.append(next)
                if spentHere.count == 64 {
                    spent.add(contentsOf: spentHere)
                    spentHere = []
                }
            }
            sequence = next.sequence
            // Asked back (another worker has nothing left): not started here.
            if shared.givesBack(sequence) {
                outbox.send(WorkerWire.line(.givenBack(sequence: sequence)))
                continue
            }
            if let code = next.outOfResources {
                // This worker can open no more files: stories it would read
                // next would fail for nothing their own. It stops; a new
                // worker runs them. One that has run no story stops nothing
                // (its successor would fail the same way): the story fails
                // with the reason.
                if hasRun {
                    shared.stopBefore(sequence)
                    outbox.send(WorkerWire.line(.stopped(
                        sequence: sequence, stopReason(code, suspects: next.suspects, cut: next.cutSuspects))))
                    break
                }
                let text = "its worker process could not read \(next.path) (\(String(cString: strerror(code)))) before it ran any story, "
                    + "so the story did not run: a before-run hook may have used up its descriptors or memory, or the system has none left"
                outbox.send(WorkerWire.line(.missing(sequence: sequence, text)))
                continue
            }
            guard let planned = next.planned else {
                let text = next.isChanged
                    ? "the story at \(next.path):\(next.line) changed after the run read it (was the file changed during the run?): it did not run"
                    : "no story starts at \(next.path):\(next.line) any more: was the file changed during the run?"
                outbox.send(WorkerWire.line(.missing(sequence: sequence, text)))
                continue
            }
            shared.startStory(sequence, attempt: next.attemptsUsed, at: DispatchTime.now().uptimeNanoseconds)
            hasRun = true
            await runner.run(planned, attemptsUsed: next.attemptsUsed, emit: forward)
            shared.endStory()
            probe.trim()
            // Its answers can no longer reach the parent: take no more
            // stories. The parent fails the story that lost the channel and
            // runs the ones sent after it in a new worker.
            if outbox.isChannelLost { break }
        }
        PhaseTimer.mark("ran")
        shared.enter(.afterRun)
        _ = await runner.finish(emit: forward)
        outbox.send(WorkerWire.line(.used(runner.usedDefinitionIDs)))
        shared.enter(.done)
        // Whatever the steps started and left running ends now, so the
        // parent, told the worker is done, need not wait for it to exit.
        Orphans.end(keeping: [])
        outbox.send(WorkerWire.line(.end))
        PhaseTimer.mark("end")
        return .success
    }

    /// Why a worker stops that could not open a story file (`code`, an
    /// `errno`): with what it holds its descriptors open on and the stories
    /// it ran since it last opened one (see ``StorySource``), the clues to
    /// the step that leaks them (all but `cut` of them, after the first).
    private static func stopReason(_ code: Int32, suspects: [StorySource.Suspect], cut: Int) -> String {
        var text = "a worker process could not open story files (\(String(cString: strerror(code))))"
        if code == EMFILE, let census = DescriptorCensus.mostShared() {
            text += ", \(census.count) of its \(census.open) open descriptors on \(census.target)"
        }
        let leaks = code == ENOMEM ? "may hold on to memory" : "may leak descriptors"
        guard let first = suspects.first, let last = suspects.last else { return text + ": a step in a story it ran \(leaks)" }
        let which = switch suspects.count + cut {
        case 1: "\(first), the story it ran since it last opened one,"
        case 2...4: suspects.dropLast().map(\.description).joined(separator: ", ") + " or \(last), the stories it ran since it last opened one,"
        default: "one of the \(suspects.count + cut) stories it ran since it last opened one, from \(first) to \(last),"
        }
        return text + ": a step in \(which) \(leaks) (or a thread or process an earlier story left running)"
    }

    /// Gives back the stories the parent asked for that wait in the queue
    /// (from the lifeline thread, while a long story runs): the ones
    /// behind a long story need not wait for it to end to go elsewhere.
    private static func giveBack(from ahead: HandOff<WorkerStory>, position: SharedPosition, outbox: WorkerOutbox) {
        guard position.isGivingBack else { return }
        for story in ahead.removeAll(where: { position.givesBack($0.sequence) }) {
            outbox.send(WorkerWire.line(.givenBack(sequence: story.sequence)))
        }
    }
}

/// A story a worker was asked to run, read and matched ahead; nil when the
/// file no longer has a story at that line.
private struct WorkerStory: Sendable {
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
private final class StorySource: @unchecked Sendable {
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
private struct StoryFiles {
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

/// Reads lines from a descriptor.
struct LineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var isAtEnd = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// What `body` makes of the next whole line's bytes (without its end);
    /// nil at the end of input.
    mutating func nextLine<Value>(_ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let value = buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<newline])) }
                start = newline + 1
                return value
            }
            if isAtEnd { return nil }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            // Read straight onto the end of the buffer.
            let old = buffer.count
            buffer += repeatElement(0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, 65_536) }
            buffer.removeSubrange((old + max(0, count))...)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { isAtEnd = true }
        }
    }
}

/// Ends a worker, and everything its steps started, when its parent dies
/// (the parent's pipe would tell only a worker that reads it, and a worker
/// stuck in a step reads nothing); meanwhile, sends on the answers that
/// wait in the outbox while a long story runs.
enum Lifeline {
    /// Starts the thread; `every` runs each time it wakes.
    static func start(outbox: WorkerOutbox, every: @escaping @Sendable () -> Void) {
        let parent = getppid()
        // Without a thread (a process limit), the worker still ends when it
        // next writes to its parent, and its answers go when it next waits.
        _ = Threads.start {
            while getppid() == parent {
                usleep(50_000)
                outbox.flushIfStale()
                every()
            }
            Orphans.endDescendants()
            _ = kill(0, SIGKILL)
        }
    }
}

