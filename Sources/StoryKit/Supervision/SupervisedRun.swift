#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One supervised run, from its first story to its totals: the workers,
/// the stories waiting for one, those on their way through one, and what
/// the parent has heard. ``Supervisor`` makes one per run.
///
/// Its parts, each in a file of its own:
/// - handing stories out (`SupervisedRun+Dispatch.swift`): batches, each
///   worker's window, stories asked back;
/// - reading answers (`SupervisedRun+Answers.swift`): a worker's lines,
///   checked against what the parent knows before they are believed;
/// - burying a worker that has gone (`SupervisedRun+Burial.swift`): the
///   story or hook it was in fails, the rest go to another worker;
/// - the end (`SupervisedRun+Ending.swift`): crashed attempts, stories not
///   run, definitions no story used.
struct SupervisedRun {
    let supervisor: Supervisor
    let next: () -> PlannedStory?
    let emit: (RunEvent) -> Void
    let warn: (String) -> Void

    var registry: StepRegistry { supervisor.registry }
    var configuration: Runner.Configuration { supervisor.configuration }
    var workerCount: Int { supervisor.workerCount }

    /// The run's rules: its totals, the definitions used, when it stops.
    var rules: RunRules
    var seenDiagnostics: Set<Diagnostic> = []
    var queue: [PlannedStory] = []
    /// Stories workers gave back since the last wait: they go to the
    /// front of the queue, in order.
    var givenBack: [PlannedStory] = []
    var isSourceDone = false
    var inFlight: [UInt64: InFlight] = [:]
    var nextSequence: UInt64 = 0
    var workers: [SupervisedWorker] = []
    var startFailure: String?
    var everReady = false
    /// Workers in a row that said they were ready and then ended by
    /// themselves before running a story: a worker started again each time
    /// would loop for ever (see ``SupervisedRun/noteIdleEnding(of:at:reason:)``).
    var idleEndings = 0
    /// Whether a worker ran its after-run hooks to its end; a run whose
    /// workers all crashed starts one more to run them (once).
    var afterRunHooksRan = false
    var startedForAfterRunHooks = false
    let hasAfterRunHooks: Bool
    /// Attempts at stories whose worker a crash or overrun ended, kept
    /// until the story is run again (`--retry`).
    var crashedAttempts: [SourceLocation: [StoryAttempt]] = [:]
    /// How many attempts at each of them have been made.
    var attemptsUsed: [SourceLocation: Int] = [:]
    /// One worker's batch: its window is eight of them.
    let fullBatch: Int
    /// How many stories have finished, and in how long in all: with
    /// several workers, quick stories are sent a file at a time.
    var finishedCount: UInt64 = 0
    var finishedNanoseconds: UInt64 = 0
    var demand = WorkerDemand()
    /// The workers' executable, read once one crashes.
    var symbolizer: Symbolizer?
    /// The last story file named in a request, as requests write it: a
    /// batch's stories mostly share their file.
    var lastPath: (file: String, path: [UInt8]) = ("", WorkerWire.requestPath(""))
    /// A batch's request lines, written into one buffer kept from batch to
    /// batch.
    var requests: [UInt8] = []
    private var fds: [pollfd] = []

    /// A story on its way through a worker.
    struct InFlight: Sendable {
        var planned: PlannedStory
        var sentAt: UInt64
    }

    init(
        supervisor: Supervisor, rules: RunRules, next: @escaping () -> PlannedStory?, emit: @escaping (RunEvent) -> Void,
        warn: @escaping (String) -> Void
    ) {
        self.rules = rules
        self.supervisor = supervisor
        self.next = next
        self.emit = emit
        self.warn = warn
        hasAfterRunHooks = supervisor.registry.hooks.contains { $0.kind == .afterRun }
        fullBatch = supervisor.configuration.isFailFast ? 1 : 64
    }

    /// Runs every story `next` gives and emits their events; returns the
    /// stories taken from `next` and not run.
    mutating func run() -> [SourceLocation] {
        Orphans.adopt()
        Orphans.noteOwn()
        // The worker started while this process registered and parsed; with
        // --jobs N, the others once the stories prove slow (see ``WorkerDemand``).
        workers = Array(Supervisor.takePrestarted(arguments: supervisor.workerArguments).prefix(workerCount))
        if workers.isEmpty { startWorker() }
        // Before-run hooks run in each worker before its first story: the
        // workers start at once, so that their hooks overlap. (Started
        // later, a worker would make the run wait for its hooks again, even
        // with no story left for it.)
        if registry.hooks.contains(where: { $0.kind == .beforeRun }) {
            while workers.count < workerCount && startFailure == nil { startWorker() }
        }
        while turn() {}
        PhaseTimer.mark("workers-ended")
        return end()
    }

    /// One turn of the run: work handed out, idle workers told when no
    /// more comes, a wait for a word from any worker, then their answers,
    /// time limits and deaths. False once no worker is left.
    private mutating func turn() -> Bool {
        if let signal = Interrupts.received, !rules.summary.wasInterrupted {
            rules.interrupted()
            for worker in workers { worker.kill(.interrupted(signal)) }
        }
        handOut()
        let hasWork = !queue.isEmpty || !isSourceDone
        closeIdleWorkers(hasWork: hasWork)
        if workers.isEmpty {
            if !rules.isStopping && hasWork && startFailure == nil { startWorker() }
            // Every worker ended in a crash (its last story's, say): the
            // run's after-run hooks still run, in a worker given no
            // story (after its before-run hooks, as in any worker).
            if workers.isEmpty, hasAfterRunHooks, !afterRunHooksRan, !startedForAfterRunHooks, everReady, startFailure == nil,
                !rules.summary.wasInterrupted
            {
                startedForAfterRunHooks = true
                startWorker()
            }
            if workers.isEmpty { return false }
        }
        waitForWord()
        readAnswers()
        requeueGivenBack()
        // Overruns, deaths, and (with one worker) the story now running.
        let time = DispatchTime.now().uptimeNanoseconds
        startMoreWorkersIfSlow(at: time)
        for worker in workers {
            // The time limit by this process's clock (see ``StepClock``).
            if worker.stepClock == nil { worker.stepClock = StepClock(seconds: configuration.stepTimeout) }
            if worker.stepClock!.isOverrun(worker.position.snapshot, at: time) {
                worker.kill(.timedOut(configuration.stepTimeout))
            }
            if let ending = worker.process.poll() {
                bury(worker, ending: ending)
            }
        }
        return true
    }

    /// Waits for a word from any worker, or for room in the request pipe of
    /// one that has requests unsent, or 50 ms (5 ms while more workers may
    /// start: a long story shows by its running time), with what is to be
    /// said so far said. (Waiting on words alone, a request larger than
    /// the pipe went a pipeful per 50 ms: 3 s for a story of 1,000,000
    /// steps, with both processes idle.)
    private mutating func waitForWord() {
        StandardOutput.flush()
        fds = workers.map { pollfd(fd: $0.messages, events: Int16(POLLIN), revents: 0) }
        let waitsToSend = workers.contains { $0.hasUnsent }
        for worker in workers where worker.hasUnsent {
            fds.append(pollfd(fd: worker.requests, events: Int16(POLLOUT), revents: 0))
        }
        let ready = poll(&fds, nfds_t(fds.count), workers.count < workerCount && startFailure == nil && !rules.isStopping ? 5 : 50)
        // A wait that ran out with requests unsent though the pipe had
        // room for them: the parent idled while it could have written
        // (tests count these stalls; a worker too busy to read is none).
        if ready == 0 && waitsToSend && workers.contains(where: { $0.flush() > 0 }) { PhaseTimer.mark("request-stall") }
    }

    /// Reads what each worker said; retires a worker that is done, and
    /// ends one whose answers were lost.
    private mutating func readAnswers() {
        for worker in workers {
            // Where it was before its messages are read: a worker writes
            // a story's answer before it leaves the story.
            let before = worker.position.snapshot
            for message in worker.readMessages().messages { handle(message, from: worker) }
            // Done, every story answered: the run goes on without
            // waiting for its exit (a worker ends what its steps started
            // before it says it is done; it is reaped later).
            if worker.hasEnded && worker.dispatched.isEmpty {
                retire(worker)
                continue
            }
            // Every story it was asked back is given back or answered.
            if let range = worker.givingBack, !worker.dispatched.contains(where: { range.contains($0) }) { worker.givingBack = nil }
            // Between stories, its outbox written (or its channel lost),
            // with every story sent started and some never answered:
            // their answers are lost (its channel was closed or
            // replaced), and it would wait for ever for more.
            if before.phase == .stories, before.story == nil, before.unsent == 0 || before.isChannelLost,
                let lastStarted = before.lastStarted,
                let last = worker.dispatched.last, last <= lastStarted, worker.killReason == nil
            {
                worker.kill(.channelLost)
            }
        }
    }
}
