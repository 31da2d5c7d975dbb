#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file reports of a run (HTML, JUnit, Cucumber JSON, Messages,
/// rerun), fed on a thread of their own so that rendering them overlaps
/// with supervising the workers.
///
/// The thread that receives the results calls ``send(_:)`` for every event;
/// events go over in batches through a bounded ``HandOff``, so memory stays
/// flat however far the reports fall behind (the sender waits). All the file
/// reports are on this one thread: they share a `StoryFileInfo.Recent`,
/// which is not safe across threads. ``finish()`` waits for every event to
/// be handled and gives the reporters back, for the caller to finish them
/// (write the files) as before. When no thread can start, the reporters
/// take each event at once on the caller's thread.
///
/// ```swift
/// let thread = ReportThread(reporters: fileReporters)
/// thread.send(.storyFinished(result))
/// let reporters = thread.finish()
/// ```
final class ReportThread {
    /// The reporters while the thread holds them; the caller never touches
    /// them between ``init(reporters:)`` and ``finish()``.
    private final class Owned: @unchecked Sendable {
        // Unchecked: only the report thread touches `reporters` until
        // `done` says it has stopped.
        var reporters: [any Reporter]
        init(_ reporters: [any Reporter]) { self.reporters = reporters }
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

    /// Starts the thread for `reporters`.
    init(reporters: [any Reporter]) {
        owned = Owned(reporters)
        guard !reporters.isEmpty else {
            // No file report: no thread.
            isThreaded = false
            return
        }
        batch.reserveCapacity(Self.batchSize)
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
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            while let events = queue.take() {
                for event in events {
                    for index in owned.reporters.indices { owned.reporters[index].handle(event) }
                }
            }
            done.put(true)
        }
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
        case .runStarted, .storyFinished, .runHookFinished, .diagnostic, .runFinished: break
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

    /// Waits until every event sent has been handled; returns the reporters,
    /// in the order given, for their `finish()`.
    func finish() -> [any Reporter] {
        if isThreaded {
            handOver()
            queue.finish()
            _ = done.take()
        }
        return owned.reporters
    }
}
