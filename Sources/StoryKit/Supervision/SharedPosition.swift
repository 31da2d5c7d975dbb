#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where a worker process is, in a page of memory it shares with its parent:
/// the story, the test step and its deadline, and how much user code had
/// printed when the test step began; after the page, the worker's outbox
/// (``WorkerOutbox``): answers not yet written to the parent's pipe.
///
/// The worker stores a few numbers per test step — no system call — and the
/// parent reads them when the worker dies or overruns, so it can name the
/// test step to blame and show what that step printed, however the worker
/// ended.
final class SharedPosition: @unchecked Sendable {
    // Unchecked: every field is an atomic in memory both processes map.
    private let slots: UnsafeMutablePointer<Atomic<UInt64>>
    /// The outbox's bytes: written by the worker (under its outbox's lock),
    /// read by the parent only once the worker is gone.
    let outbox: UnsafeMutableRawBufferPointer
    private static let pageSize = 4096
    static let size = 64 * 1024

    /// What a worker is doing.
    enum Phase: UInt64 {
        case starting = 0, beforeRun = 1, stories = 2, afterRun = 3, done = 4
    }

    /// The kind of test step a worker is in.
    enum StepKind: UInt64 {
        case none = 0, step = 1, hook = 2
    }

    private enum Slot: Int {
        case phase, story, stepKind, stepIndex, hookIndex, deadline, outputOffset, attempt, lastStarted, unsent, channelLost, storyStart
        case giveBackFrom, giveBackThrough, lastFinished, stoppedBefore
    }

    private init(_ memory: UnsafeMutableRawPointer) {
        slots = memory.bindMemory(to: Atomic<UInt64>.self, capacity: Self.pageSize / 8)
        outbox = UnsafeMutableRawBufferPointer(start: memory + Self.pageSize, count: Self.size - Self.pageSize)
    }

    /// Maps the shared page from a file both processes hold open; nil when
    /// it cannot be mapped.
    static func map(fileDescriptor: Int32) -> SharedPosition? {
        guard ftruncate(fileDescriptor, off_t(size)) == 0 else { return nil }
        let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fileDescriptor, 0)
        guard let memory, memory != MAP_FAILED else { return nil }
        return SharedPosition(memory)
    }

    private func load(_ slot: Slot) -> UInt64 { slots[slot.rawValue].load(ordering: .acquiring) }
    private func store(_ value: UInt64, _ slot: Slot) { slots[slot.rawValue].store(value, ordering: .releasing) }

    // MARK: The worker's side

    /// The worker enters a phase.
    func enter(_ phase: Phase) {
        store(phase.rawValue, .phase)
    }

    /// The worker starts a story (by the parent's sequence number), at an
    /// uptime in nanoseconds.
    func startStory(_ sequence: UInt64, attempt: Int, at uptime: UInt64) {
        store(0, .deadline)
        store(uptime, .storyStart)
        // No test step of this story yet: a death before its first is not
        // blamed on the last story's place.
        store(StepKind.none.rawValue, .stepKind)
        store(0, .stepIndex)
        store(UInt64(attempt), .attempt)
        store(sequence &+ 1, .story)
        store(sequence &+ 1, .lastStarted)
    }

    /// The worker starts another attempt at the story (`--retry`).
    func startAttempt(_ attempt: Int, at uptime: UInt64) {
        store(uptime, .storyStart)
        store(UInt64(attempt), .attempt)
    }

    /// The worker starts a test step: a story step (`index` in the story) or
    /// a hook (`hookIndex` in the registry, around step `index`), with the
    /// capture file's length and the deadline in uptime nanoseconds.
    func startTestStep(_ kind: StepKind, index: Int, hookIndex: Int, deadline: UInt64, output: UInt64) {
        store(kind.rawValue, .stepKind)
        store(UInt64(index), .stepIndex)
        store(UInt64(hookIndex), .hookIndex)
        store(output, .outputOffset)
        store(deadline, .deadline)
    }

    /// The worker ends a test step.
    func endTestStep() {
        store(0, .deadline)
        store(StepKind.none.rawValue, .stepKind)
    }

    /// The worker has the story's result, and is about to send it: an answer
    /// for a story that has not got this far is not the worker's own (a
    /// step wrote it, for its own story, to the worker's messages pipe).
    func finishStory(_ sequence: UInt64) {
        store(sequence &+ 1, .lastFinished)
    }

    /// The worker stops before the story `sequence`, for want of
    /// descriptors or memory, and is about to say so: a "stopped" line
    /// for any other story is not the worker's own.
    func stopBefore(_ sequence: UInt64) {
        store(sequence &+ 1, .stoppedBefore)
    }

    /// The story the worker stopped before (``stopBefore(_:)``), if it did.
    var stoppedBefore: UInt64? {
        let stoppedBefore = load(.stoppedBefore)
        return stoppedBefore == 0 ? nil : stoppedBefore - 1
    }

    /// The worker ends a story.
    func endStory() {
        store(0, .deadline)
        store(0, .story)
    }

    /// How many bytes of the outbox are not yet written to the pipe.
    func setUnsent(_ count: Int) {
        store(UInt64(count), .unsent)
    }

    /// A step closed or replaced the messages pipe: the outbox keeps what
    /// it holds and takes nothing more.
    func noteChannelLost() {
        store(1, .channelLost)
    }

    /// Whether the parent has asked for the story back (see
    /// ``giveBack(from:through:)``): one load per story.
    func givesBack(_ sequence: UInt64) -> Bool {
        let through = load(.giveBackThrough)
        return through != 0 && sequence &+ 1 <= through && sequence &+ 1 >= load(.giveBackFrom)
    }

    /// Whether the parent has asked for stories back.
    var isGivingBack: Bool { load(.giveBackThrough) != 0 }

    // MARK: The parent's side

    /// A copy of where the worker is.
    struct Snapshot: Equatable {
        var phase: Phase
        /// The parent's sequence number of the running story, if one runs.
        var story: UInt64?
        var attempt: Int
        var stepKind: StepKind
        var stepIndex: Int
        var hookIndex: Int
        /// Uptime nanoseconds past which the test step has overrun; 0 for none.
        var deadline: UInt64
        var outputOffset: UInt64
        /// The sequence number of the last story the worker started, if it
        /// started one: it runs its stories in the order sent, so every
        /// story sent before it has started too.
        var lastStarted: UInt64?
        /// How many bytes wait in the outbox.
        var unsent: Int
        /// Whether the worker's messages pipe was closed or replaced.
        var isChannelLost: Bool
        /// The uptime in nanoseconds at which the running story (or its
        /// latest attempt) started; 0 before the first.
        var storyStart: UInt64 = 0
    }

    /// Asks the worker to give back, unstarted, the stories it was sent
    /// with sequence numbers from `first` through `last` that it has not
    /// started: it answers each with a "given back" message instead of
    /// running it, and runs the ones it had started already. (Stored last
    /// first: a worker that reads the pair half written sees no range or a
    /// smaller one, never stories it was not asked for.)
    func giveBack(from first: UInt64, through last: UInt64) {
        store(0, .giveBackThrough)
        store(first &+ 1, .giveBackFrom)
        store(last &+ 1, .giveBackThrough)
    }

    /// The sequence number of the last story the worker started, as in
    /// ``snapshot``, read alone.
    var lastStarted: UInt64? {
        let lastStarted = load(.lastStarted)
        return lastStarted == 0 ? nil : lastStarted - 1
    }

    /// The sequence number of the last story whose result the worker has
    /// (``finishStory(_:)``), if any.
    var lastFinished: UInt64? {
        let lastFinished = load(.lastFinished)
        return lastFinished == 0 ? nil : lastFinished - 1
    }

    /// Where the worker is now.
    var snapshot: Snapshot {
        // The last story started before the running one: the worker
        // stores the running one first, so a snapshot that has a story as
        // started and none running was taken after that story ended (read
        // the other way round, it could catch the worker between stories
        // and then starting the last one, and take it for idle).
        let lastStarted = load(.lastStarted)
        let story = load(.story)
        return Snapshot(
            phase: Phase(rawValue: load(.phase)) ?? .starting, story: story == 0 ? nil : story - 1,
            attempt: Self.index(load(.attempt)),
            stepKind: StepKind(rawValue: load(.stepKind)) ?? .none, stepIndex: Self.index(load(.stepIndex)),
            hookIndex: Self.index(load(.hookIndex)), deadline: load(.deadline),
            outputOffset: load(.outputOffset), lastStarted: lastStarted == 0 ? nil : lastStarted - 1,
            unsent: Int(truncatingIfNeeded: load(.unsent)), isChannelLost: load(.channelLost) != 0, storyStart: load(.storyStart))
    }

    /// A count or index read from the page: never negative (a step may
    /// have written anything there), so that it can only be out of range
    /// upwards, which every reader checks.
    private static func index(_ value: UInt64) -> Int {
        Int(min(value, UInt64(Int32.max)))
    }

    /// The lines a worker that is gone left in its outbox (it writes whole
    /// lines only).
    var unsentBytes: [UInt8] {
        let count = min(Int(truncatingIfNeeded: load(.unsent)), outbox.count)
        return Array(UnsafeRawBufferPointer(rebasing: outbox[..<max(0, count)]))
    }

    deinit {
        munmap(UnsafeMutableRawPointer(slots), Self.size)
    }
}
