#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File reports of a run (HTML, JUnit, Cucumber JSON, Messages, rerun),
/// fed on a thread of their own so that rendering them overlaps with
/// supervising the workers (a run uses two: one for Messages, one for the
/// rest).
///
/// The thread that receives the results calls ``send(_:)`` for every event;
/// events go over in batches through a bounded ``HandOff``, so memory stays
/// flat however far the reports fall behind (the sender waits). The reports
/// of both threads may share a `StoryFileInfo.Recent`, which locks.
/// ``finish(into:)`` waits for every event to be handled;
/// then the thread writes its reports whole, under their temporary names,
/// into the caller's ``ReportBatch`` (so the threads write their files at
/// the same time, and the caller renames them all at once), unless it is
/// told not to. When no thread can start, the reporters take each event,
/// and write their files, on the caller's thread.
///
/// ```swift
/// let thread = ReportThread(reporters: fileReporters)
/// thread.send(.storyFinished(result))
/// let batch = ReportBatch()
/// var problems = thread.finish(into: batch).map(\.problem)
/// problems += batch.publish()
/// ```
final class ReportThread {
    /// The reporters while the thread holds them; the caller never touches
    /// them between ``init(reporters:writesOnThread:)`` and ``finish(into:)``.
    private final class Owned: @unchecked Sendable {
        // Unchecked: only the report thread touches `reporters` until
        // `done` says it has stopped.
        var reporters: [any Reporter]
        /// The reports written, waiting to be renamed into place.
        let batch = ReportBatch()
        /// What could not be written, by the index of its reporter.
        var problems: [(reporter: Int, problem: Diagnostic)] = []
        /// Set by ``ReportThread/close()`` before the queue ends: the
        /// reports are written only for a run that finishes.
        var isFinishing = false
        init(_ reporters: [any Reporter]) { self.reporters = reporters }

        /// Writes every report (its `finish()`) into ``batch``.
        func finishReporters() {
            batch.collect {
                for index in reporters.indices {
                    do {
                        try reporters[index].finish()
                    } catch {
                        problems.append((index, error as? Diagnostic ?? Diagnostic(at: nil, problem: "\(error)")))
                    }
                }
            }
        }
    }

    /// Events per batch: one hand-off (a lock and a wake-up) per batch, not per event.
    static let batchSize = 64
    /// Batches the queue holds before the sender waits: at most
    /// `batchSize * capacity` events (a few megabytes) in flight.
    static let capacity = 32

    private let owned: Owned
    private let queue = HandOff<[RunEvent]>(capacity: ReportThread.capacity)
    /// Says once that the thread has handled every event.
    private let done = HandOff<Bool>(capacity: 1)
    /// Events not yet handed over (the sender's side alone).
    private var batch: [RunEvent] = []
    /// Whether the thread runs; false when it could not start.
    private let isThreaded: Bool

    /// Whether the thread writes the reports too; when not, ``finish(into:)``
    /// writes them on the caller's thread.
    private let writesOnThread: Bool

    /// Starts the thread for `reporters`. `writesOnThread`: whether it
    /// writes them at the end too (not for reports that go straight to
    /// standard output, a device or a FIFO: those are written one after
    /// another, by the caller, after the terminal reports).
    /// `replacing`: the paths of the reports, whose earlier files the
    /// thread removes first, before it takes any event and so before any
    /// report of this run is renamed into place (see ``EarlierReport``),
    /// and which are resolved now, where the report files then go (see
    /// ``ReportTarget``); start the thread only once the run goes ahead.
    init(reporters: [any Reporter], writesOnThread: Bool = true, replacing: [String] = []) {
        self.writesOnThread = writesOnThread
        owned = Owned(reporters)
        guard !reporters.isEmpty else {
            // No file report: no thread.
            isThreaded = false
            return
        }
        batch.reserveCapacity(Self.batchSize)
        // Anchored here, before any story can change the folder.
        let replacing = EarlierReport.anchored(replacing)
        // Resolved here too, once: a step cannot redirect a report later
        // (see ``ReportTarget``).
        owned.batch.targets = ReportTarget.resolve(replacing)
        let queue = queue
        let done = done
        let owned = owned
        isThreaded = Threads.start {
            // SIGINT and SIGTERM stay with the thread that supervises,
            // whose wait in poll(2) they end.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            sigaddset(&signals, SIGHUP)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            // The reports this run replaces go now, while the worker
            // starts, not in the renames at the end (freeing a 50 MB
            // report's pages and blocks took milliseconds there). Here, off
            // the thread that runs the stories.
            owned.batch.earlierModes = EarlierReport.remove(at: replacing)
            while let events = queue.take() {
                for event in events {
                    for index in owned.reporters.indices { owned.reporters[index].handle(event) }
                }
            }
            guard owned.isFinishing else {
                done.put(true)
                return
            }
            owned.finishReporters()
            done.put(true)
            // The reporters go here, while the caller renames the reports:
            // closing their spill files frees the pages of tens of
            // megabytes, and freeing the places of their stories takes
            // milliseconds too.
            owned.reporters = []
        }
        // No thread: the earlier reports go here, still before any event.
        if !isThreaded { owned.batch.earlierModes = EarlierReport.remove(at: replacing) }
    }

    deinit {
        // A run that never called finish() lets its thread end.
        queue.finish()
    }

    /// Passes an event to the reports. Events within a story (`storyStarted`,
    /// `stepStarted`, `stepFinished`) are left out: file reports read a story
    /// whole from its `storyFinished`.
    func send(_ event: RunEvent) {
        switch event {
        case .storyStarted, .stepStarted, .stepFinished: return
        case .runStarted, .storyFinished, .runHookFinished, .diagnostic, .storyFileRejected, .runFinished: break
        }
        guard isThreaded else {
            for index in owned.reporters.indices { owned.reporters[index].handle(event) }
            return
        }
        batch.append(event)
        if batch.count >= Self.batchSize { handOver() }
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        queue.put(batch)
        batch.removeAll(keepingCapacity: true)
    }

    /// Ends the events: the thread handles those it has, then writes its
    /// reports (call it on every thread first, so they write at once).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        owned.isFinishing = writesOnThread
        if isThreaded {
            handOver()
            queue.finish()
        }
    }

    private var isClosed = false

    /// Waits until every event sent has been handled and every report
    /// written under its temporary name; moves those files into `batch`, for
    /// the caller to rename; returns what could not be written, by the
    /// index of its reporter.
    func finish(into batch: ReportBatch) -> [(reporter: Int, problem: Diagnostic)] {
        close()
        if isThreaded { _ = done.take() }
        if !isThreaded || !writesOnThread { owned.finishReporters() }
        batch.adopt(owned.batch)
        return owned.problems
    }
}
