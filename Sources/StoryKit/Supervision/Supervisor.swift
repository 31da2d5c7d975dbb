#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The parent of a supervised run: it never runs user code. It hands
/// stories in batches to worker processes, turns their answers into run
/// events, and alone decides the verdict.
///
/// A worker that crashes, exits, overruns a time limit (a step's or a
/// hook's) or is interrupted is ended with its whole process group; the
/// story it was in fails at the test step it was in, with what that step
/// printed; the stories it had not started go to another worker.
struct Supervisor {
    let registry: StepRegistry
    let configuration: Runner.Configuration
    /// How many workers run at once.
    let workerCount: Int
    /// The options a worker needs to run stories as this run would.
    let workerArguments: [String]
    let now: @Sendable () -> UInt64

    /// The worker started before the parent registered its step classes,
    /// so that its start-up and registration overlap the parent's.
    nonisolated(unsafe) private static var prestarted: (arguments: [String], workers: [SupervisedWorker]) = ([], [])

    /// Starts the first worker now, for the run that follows (only on the
    /// main thread, before ``run(next:emit:warn:)``); a worker that cannot
    /// start now is tried again, and its problem reported, by the run. (The
    /// others of `--jobs` start when the run's stories prove slow.)
    ///
    /// With `forking`, from the entry point before anything else ran, the
    /// worker is this process forked when that is safe: then this returns
    /// true in the worker, which goes on to run as `--worker arguments`.
    @discardableResult
    static func prestart(arguments: [String], forking: Bool = false) -> Bool {
        // Started already (from the entry point, for these arguments).
        if prestarted.arguments == arguments && !prestarted.workers.isEmpty { return false }
        discardPrestarted()
        Orphans.adopt()
        Orphans.noteOwn()
        var workers: [SupervisedWorker] = []
        switch try? SupervisedWorker.start(arguments: arguments, forking: forking) {
        case .worker?: return true
        case .parent(let worker)?: workers.append(worker)
        case nil: break
        }
        prestarted = (arguments, workers)
        PhaseTimer.mark("workers-started")
        return false
    }

    /// Workers that said they were done and were killed, not yet reaped.
    nonisolated(unsafe) private static var retired: [pid_t] = []

    /// Waits for the workers retired during a run (killed already: a
    /// moment), then ends whatever they handed over. A thread a step left
    /// running may have started a process after its worker's last sweep and
    /// before the worker was killed: it comes to this process (a subreaper)
    /// only once the worker has exited. The run calls this once its reports
    /// are written, so the wait overlaps them; no process of the run is left
    /// behind.
    static func endRetired() {
        guard !retired.isEmpty else { return }
        for pid in retired {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        retired = []
        Orphans.endHandedOver(keeping: [])
    }

    /// Ends the workers started ahead when no run follows.
    static func discardPrestarted() {
        for worker in takePrestarted(arguments: nil) { discard(worker) }
    }

    private static func discard(_ worker: SupervisedWorker) {
        worker.kill(.interrupted(SIGTERM))
        var status: Int32 = 0
        _ = waitpid(worker.process.pid, &status, 0)
        worker.release()
    }

    private static func takePrestarted(arguments: [String]?) -> [SupervisedWorker] {
        let (started, workers) = prestarted
        prestarted = ([], [])
        if let arguments, started != arguments {
            for worker in workers { discard(worker) }
            return []
        }
        return workers
    }

    /// A story on its way through a worker.
    private struct InFlight {
        var planned: PlannedStory
        var sentAt: UInt64
    }

    /// Runs every story `next` gives and emits their events; returns the
    /// totals.
    func run(next: () -> PlannedStory?, emit: (RunEvent) -> Void, warn: (String) -> Void) -> RunSummary {
        var summary = RunSummary()
        var isUsed = Array(repeating: false, count: registry.definitions.count)
        var seenDiagnostics: Set<Diagnostic> = []
        var queue: [PlannedStory] = []
        // Stories workers gave back since the last wait: they go to the
        // front of the queue, in order.
        var givenBack: [PlannedStory] = []
        var isSourceDone = false
        var inFlight: [UInt64: InFlight] = [:]
        var nextSequence: UInt64 = 0
        var workers: [SupervisedWorker] = []
        var isStopping = false
        /// Whether a before-run hook failed (and so stopped the run).
        var hasFailedBeforeRun = false
        var startFailure: String?
        var everReady = false
        // Whether a worker ran its after-run hooks to its end; a run whose
        // workers all crashed starts one more to run them (once).
        var afterRunHooksRan = false
        var startedForAfterRunHooks = false
        let hasAfterRunHooks = registry.hooks.contains { $0.kind == .afterRun }
        // Attempts at stories whose worker a crash or overrun ended, kept
        // until the story is run again (`--retry`).
        var crashedAttempts: [SourceLocation: [StoryAttempt]] = [:]
        // How many attempts at each of them have been made.
        var attemptsUsed: [SourceLocation: Int] = [:]
        // One worker's batch: its window is eight of them.
        let fullBatch = configuration.isFailFast ? 1 : 64
        // With several workers, once stories prove quick (under 0.2 ms on
        // average), a batch runs on to the end of its file (up to 256
        // stories), so that each file is parsed by one worker, not by all.
        var finishedCount: UInt64 = 0
        var finishedNanoseconds: UInt64 = 0
        var storiesAreQuick: Bool { workerCount > 1 && !configuration.isFailFast && finishedCount >= 32 && finishedNanoseconds / finishedCount < 200_000 }
        // How many stories a worker may hold at once: enough that it never
        // waits for the parent. Under --fail-fast, one: a story sent while
        // the one before it runs would run (and be reported) after that one
        // failed. With several workers, one each until a story has finished
        // (so that a few slow stories are shared out, not taken by the first
        // worker ready), then about 50 ms of them each by the average so far,
        // at least two: few enough that none is left holding a queue while
        // another idles at the end.
        var window: Int {
            if configuration.isFailFast { return 1 }
            if workerCount == 1 { return fullBatch * 8 }
            guard finishedCount > 0 else { return 1 }
            return Int(min(1024, max(2, 50_000_000 / max(1, finishedNanoseconds / finishedCount))))
        }

        func startWorker() {
            do {
                workers.append(try SupervisedWorker.start(arguments: workerArguments))
            } catch {
                startFailure = error.description
            }
        }
        Orphans.adopt()
        Orphans.noteOwn()
        // The worker started while this process registered and parsed; with
        // --jobs N, the others once the stories prove slow (see ``WorkerDemand``).
        workers = Self.takePrestarted(arguments: workerArguments).prefix(workerCount).map { $0 }
        if workers.isEmpty { startWorker() }
        // Before-run hooks run in each worker before its first story: the
        // workers start at once, so that their hooks overlap. (Started
        // later, a worker would make the run wait for its hooks again, even
        // with no story left for it.)
        if registry.hooks.contains(where: { $0.kind == .beforeRun }) {
            while workers.count < workerCount && startFailure == nil { startWorker() }
        }
        var demand = WorkerDemand()
        /// How long the longest-running story has been running.
        func longestRunning(at time: UInt64) -> UInt64 {
            workers.reduce(0) { longest, worker in
                let snapshot = worker.position.snapshot
                guard snapshot.story != nil, snapshot.storyStart > 0, time > snapshot.storyStart else { return longest }
                return max(longest, time - snapshot.storyStart)
            }
        }

        /// Fills the queue from the source so a batch is ready.
        func fill(_ count: Int) {
            while !isSourceDone && queue.count < count {
                if let planned = next() { queue.append(planned) } else { isSourceDone = true }
            }
        }

        func finish(_ result: consuming StoryResult, matches: [MatchResult]?) {
            // Nearly always empty: no place to hash.
            if !attemptsUsed.isEmpty { attemptsUsed[result.story.location] = nil }
            if !crashedAttempts.isEmpty, let earlier = crashedAttempts.removeValue(forKey: result.story.location) {
                result.earlierAttempts = earlier + result.earlierAttempts
            }
            finishedCount += 1
            finishedNanoseconds &+= result.duration
            if workerCount > 1 { demand.noteFinished(duration: result.duration) }
            if configuration.emitsStoryProgress { emit(.storyStarted(result.story)) }
            // One pass over the test steps (`steps` would build an array each time).
            for index in result.testSteps.indices {
                guard case .step(let step) = result.testSteps[index] else { continue }
                if let id = step.match?.definitionID, id < isUsed.count { isUsed[id] = true }
                if configuration.emitsStoryProgress { emit(.stepFinished(step)) }
            }
            summary.add(result)
            emit(.storyFinished(result))
            if configuration.isFailFast && result.status == .failed { isStopping = true }
        }

        /// Whether an answer for `sequence` is the worker's own: in turn
        /// (after the last it answered) and, for a result, for a story it
        /// has finished (the worker notes each on the shared page before
        /// it sends the result). A line a step writes to descriptor 4 that
        /// passes for an answer is neither, or makes the real answer come
        /// out of turn: it is dropped, and the run fails with a diagnostic
        /// naming the story then running (before, "P 1 …" written by the
        /// first story passed the second, which failed, and the run exited
        /// 0; and a pass a story's step wrote for that story, before the
        /// worker died in it, passed the story and the run).
        /// `fromOutbox`: the lines read from the shared page once the worker
        /// died, which may repeat lines it wrote just before.
        func isOwnAnswer(_ sequence: UInt64, from worker: SupervisedWorker, isResult: Bool, fromOutbox: Bool) -> Bool {
            let inTurn = worker.lastAnswered.map { sequence > $0 } ?? true
            // One slot of the shared page, not a whole snapshot, per answer.
            let finished = !isResult || worker.position.lastFinished.map { sequence <= $0 } ?? false
            if inTurn && finished {
                worker.lastAnswered = sequence
                return true
            }
            if !fromOutbox {
                let snapshot = worker.position.snapshot
                summary.failedHooks += 1
                let running = snapshot.story.flatMap { inFlight[$0]?.planned.story }
                let culprit = running.map {
                    "a step wrote to it, in the story now running, \"\($0.name)\" (\($0.location.fileAndLine)), or in one before it in that worker"
                } ?? "a step wrote to it"
                emit(.diagnostic(Diagnostic(
                    at: running?.location,
                    problem: "a worker process's channel to storyrun (descriptor \(WorkerMain.messages)) carried an answer for a story out of turn: "
                        + "\(culprit); the verdicts of that worker's stories cannot be trusted, so the run fails")))
            }
            return false
        }

        func handle(_ message: WorkerWire.Message, from worker: SupervisedWorker, fromOutbox: Bool = false) {
            switch message {
            case .ready:
                if !everReady { PhaseTimer.mark("worker-ready") }
                worker.isReady = true
                everReady = true
            case .end:
                // Only once the worker is done (after its after-run hooks and
                // its sweep): the same line written by a step or hook is not
                // its end (in a before-run hook it made the run start and
                // retire workers for ever).
                // And only once the parent has told it no more stories
                // come: before that, it is not the worker's own.
                guard worker.requestsAreClosed || hasFailedBeforeRun, worker.position.snapshot.phase == .done else { return }
                worker.hasEnded = true
                afterRunHooksRan = true
                // It has said everything and ended what its steps started:
                // end it now rather than wait for its exit.
                worker.process.killGroup()
            case .runHook(let hook):
                if hook.status == .failed {
                    summary.failedHooks += 1
                    let diagnostic = Diagnostic(at: hook.location, problem: hook.error?.message ?? "the \(hook.kind) hook failed")
                    if seenDiagnostics.insert(diagnostic).inserted { emit(.diagnostic(diagnostic)) }
                    // The run's setup failed: no story runs (the worker runs none either).
                    if hook.kind == Hook.Kind.beforeRun.rawValue {
                        hasFailedBeforeRun = true
                        isStopping = true
                    }
                }
                emit(.runHookFinished(hook))
            case .diagnostic(let diagnostic):
                if seenDiagnostics.insert(diagnostic).inserted { emit(.diagnostic(diagnostic)) }
            case .used(let ids):
                if let bad = ids.first(where: { $0 < 0 || $0 >= isUsed.count }) {
                    reject(worker, "a line of definitions used naming definition \(bad), of \(isUsed.count)", fromOutbox: fromOutbox)
                    return
                }
                for id in ids { isUsed[id] = true }
            case .invalid(let what):
                reject(worker, what, fromOutbox: fromOutbox)
            case .passed(let sequence, let duration, let testSteps):
                guard isOwnAnswer(sequence, from: worker, isResult: true, fromOutbox: fromOutbox),
                    let flight = take(sequence, from: worker)
                else { return }
                if let result = rebuild(flight.planned, duration: duration, testSteps: testSteps) {
                    finish(result, matches: flight.planned.matches)
                } else {
                    finish(lost(flight.planned.story, "its worker's answer did not fit the story"), matches: nil)
                    reject(worker, "an answer that did not fit the story \"\(flight.planned.story.name)\"", fromOutbox: fromOutbox)
                }
            case .result(let sequence, let wire):
                guard isOwnAnswer(sequence, from: worker, isResult: true, fromOutbox: fromOutbox),
                    let flight = take(sequence, from: worker)
                else { return }
                if let result = wire.result(for: flight.planned.story) {
                    finish(result, matches: flight.planned.matches)
                } else {
                    // "Passed" with no steps, say: a passed story accounts
                    // for every step the parent planned.
                    finish(lost(flight.planned.story, "its worker's answer did not account for the story's steps"), matches: nil)
                    reject(worker, "an answer that did not fit the story \"\(flight.planned.story.name)\"", fromOutbox: fromOutbox)
                }
            case .missing(let sequence, let text):
                guard isOwnAnswer(sequence, from: worker, isResult: false, fromOutbox: fromOutbox),
                    let flight = take(sequence, from: worker)
                else { return }
                finish(lost(flight.planned.story, text), matches: nil)
            case .stopped(let sequence, let text):
                // It could open no more story files (a step leaked its
                // descriptors, say) and ends without starting this story:
                // no story is to blame. Those it had not started go to a new
                // worker when it is buried; the run fails, saying why.
                // The worker's own only (it notes it on the shared page first),
                // not a line a step wrote to its channel.
                guard !worker.hasStopped, worker.dispatched.contains(sequence), worker.position.stoppedBefore == sequence else { return }
                worker.hasStopped = true
                worker.closeRequests()
                summary.failedHooks += 1
                emit(.diagnostic(Diagnostic(at: nil, problem: text + (isStopping ? "" : "; the run went on with a new worker"))))
            case .givenBack(let sequence):
                // Only a story asked back and not started when it was asked
                // (a worker starts stories in the order sent, and checks for
                // an ask before each), nor running now: a step that writes
                // such a line for its own story must not have it run again
                // elsewhere (and a crash in it go unreported). Not the
                // worker's last story now: stories given back may come back
                // to it and start before its answers for the others are read.
                guard worker.givingBack?.contains(sequence) == true,
                    worker.givingBackAfter.map({ sequence > $0 }) ?? true,
                    worker.position.snapshot.story != sequence,
                    let flight = take(sequence, from: worker)
                else { return }
                givenBack.append(flight.planned)
            }
        }

        /// A line from `worker` that is not the worker's own (no message, or
        /// a claim the parent can check and found wrong): the worker is
        /// ended (the story it is in fails, saying why, and the stories it
        /// had not started go to another) and the run fails with a note. A
        /// line from the outbox of a worker that is gone is only dropped.
        func reject(_ worker: SupervisedWorker, _ what: String, fromOutbox: Bool) {
            guard !fromOutbox, worker.killReason == nil else { return }
            let running = worker.position.snapshot.story.flatMap { inFlight[$0]?.planned.story }
            summary.failedHooks += 1
            emit(.diagnostic(Diagnostic(
                at: running?.location,
                problem: "a worker process's channel to storyrun (descriptor \(WorkerMain.messages)) carried \(what), which the worker never sends: "
                    + "a step wrote to it\(running.map { ", in the story now running, \"\($0.name)\" (\($0.location.fileAndLine)), or in one before it in that worker" } ?? ""); "
                    + "storyrun stopped that worker, and the run fails")))
            worker.kill(.badAnswer(what))
        }

        /// Puts the stories given back at the front of the queue.
        func requeueGivenBack() {
            guard !givenBack.isEmpty else { return }
            queue.insert(contentsOf: givenBack, at: 0)
            givenBack = []
        }

        /// When a worker has nothing left and nothing is left to send, asks
        /// the worker holding the most unstarted stories for the later half
        /// of them back: a few slow stories sent in one window (after many
        /// quick ones made it long) are shared out, not run one after
        /// another while the other workers wait for the end.
        func takeBackWork() {
            guard workers.contains(where: { $0.isReady && !$0.hasEnded && $0.dispatched.isEmpty }) else { return }
            var busiest: SupervisedWorker?
            for worker in workers where !worker.hasEnded && !worker.hasStopped && worker.givingBack == nil && worker.dispatched.count >= 2 {
                if worker.dispatched.count > busiest?.dispatched.count ?? 0 { busiest = worker }
            }
            // Its first story is running, or about to: the rest is what it may give back.
            guard let busiest, let first = busiest.dispatched.newest(busiest.dispatched.count / 2).first,
                let last = busiest.dispatched.last
            else { return }
            busiest.givingBack = first...last
            busiest.position.giveBack(from: first, through: last)
            busiest.givingBackAfter = busiest.position.snapshot.lastStarted
        }

        func take(_ sequence: UInt64, from worker: SupervisedWorker) -> InFlight? {
            // Answers come in the order sent: almost always the first. Only a
            // story sent to this worker: step code that writes a forged answer
            // cannot claim another worker's story.
            guard worker.dispatched.remove(sequence) else { return nil }
            return inFlight.removeValue(forKey: sequence)
        }

        /// A worker that said it is done (and was killed at once) leaves the
        /// run without a wait for its exit.
        func retire(_ worker: SupervisedWorker) {
            worker.release()
            workers.removeAll { $0 === worker }
            Self.retired.append(worker.process.pid)
        }

        /// The workers' executable, read once one crashes.
        var symbolizer: Symbolizer?
        /// What a worker that has gone printed since the test step it was
        /// in began; when it crashed, its stack trace symbolized.
        func crashReport(of worker: SupervisedWorker, since snapshot: SharedPosition.Snapshot, reason: WorkerFailure.Reason) -> CrashReport {
            let printed = worker.printed(since: snapshot)
            guard case .signal = reason else { return CrashReport(printed: printed, site: nil) }
            let reader = symbolizer ?? Symbolizer(path: SupervisedWorker.executablePath)
            symbolizer = reader
            return CrashReport.reading(printed, symbolizer: reader)
        }

        /// A worker has gone: blame the story it was in, hand on the rest.
        func bury(_ worker: SupervisedWorker, ending: ChildProcess.Ending) {
            // Read what it said before it went, then what it had not yet
            // written (its outbox).
            for message in worker.readMessages().messages { handle(message, from: worker) }
            for message in worker.unsentMessages() { handle(message, from: worker, fromOutbox: true) }
            worker.process.killGroup()
            let snapshot = worker.position.snapshot
            let reason: WorkerFailure.Reason =
                worker.killReason
                ?? {
                    switch ending {
                    case .exited(let code): .exit(code)
                    case .signalled(let signal): .signal(signal)
                    }
                }()
            let elapsed: UInt64 = 0
            // An interrupted run says so once, as "not run (the run was
            // interrupted)", not as a worker that failed to start.
            let isInterrupted = if case .interrupted = reason { true } else { false }
            // In its run hooks by the parent's own knowledge, not by the
            // phase on the shared page, which a hook may have overwritten
            // (a before-run hook that marked it done was replaced for ever;
            // an after-run hook that marked it done and exited 0 passed):
            // before it said it was ready, or in a hook once it was told no
            // more stories come and answered every one.
            let inRunHooks = !worker.isReady
                || worker.requestsAreClosed && worker.dispatched.isEmpty && snapshot.stepKind == .hook
            if !worker.hasEnded {
                switch inRunHooks ? SharedPosition.Phase.beforeRun : .stories {
                case .starting, .beforeRun, .afterRun:
                    if snapshot.stepKind == .hook, snapshot.hookIndex < registry.hooks.count {
                        let crash = crashReport(of: worker, since: snapshot, reason: reason)
                        let hook = WorkerFailure.runHook(
                            registry.hooks[snapshot.hookIndex], reason: reason, printed: crash.printed, site: crash.site, elapsed: elapsed)
                        summary.failedHooks += 1
                        emit(.diagnostic(Diagnostic(at: hook.location, problem: hook.error?.message ?? "")))
                        emit(.runHookFinished(hook))
                        if !worker.isReady && !isInterrupted {
                            startFailure = startFailure ?? "a worker process died in a before-run hook, so no worker could run the stories"
                        }
                    } else if !worker.isReady && !isInterrupted {
                        let said = worker.printed(since: snapshot).map(\.body).joined(separator: "\n")
                        startFailure = startFailure ?? "a worker process ended before it was ready (\(reason))"
                            + (said.isEmpty ? "" : ":\n" + said)
                    }
                case .stories, .done:
                    if let sequence = snapshot.story, let flight = take(sequence, from: worker) {
                        let crash = crashReport(of: worker, since: snapshot, reason: reason)
                        let result = WorkerFailure.result(
                            for: flight.planned.story, registry: registry, at: snapshot, reason: reason, printed: crash.printed,
                            site: crash.site, elapsed: Self.elapsed(since: snapshot, sentAt: flight.sentAt, now: now))
                        if !isInterrupted, !isStopping, snapshot.attempt < configuration.retries, canChange(flight.planned) {
                            // --retry: a crash is a failure like any other; the story runs again
                            // in a new worker, this attempt kept.
                            crashedAttempts[result.story.location, default: []].append(
                                StoryAttempt(status: result.status, testSteps: result.testSteps, duration: result.duration))
                            attemptsUsed[result.story.location] = snapshot.attempt + 1
                            queue.insert(flight.planned, at: 0)
                        } else {
                            finish(result, matches: flight.planned.matches)
                        }
                    } else if snapshot.story == nil, worker.killReason == nil, !snapshot.isChannelLost {
                        // No story to blame, and every verdict stands; but a
                        // worker does not die by itself: say so.
                        warn("storyrun: a worker process ended between stories (\(reason)); no story was running, so none failed. "
                            + "A thread or process that a step left running may have ended it.")
                    }
                }
            }
            // Stopped for a lost channel before its after-run hooks, or
            // between them: they did not run, and the run must not pass as
            // if they had.
            if !worker.hasEnded, worker.killReason == .channelLost,
                snapshot.phase == .stories || snapshot.phase == .afterRun && snapshot.stepKind != .hook,
                let hook = registry.hooks.first(where: { $0.kind == .afterRun })
            {
                summary.failedHooks += 1
                emit(.diagnostic(Diagnostic(
                    at: hook.location,
                    problem: "the after-run hooks of a worker process did not run: " + WorkerFailure.message(.channelLost, printed: []))))
            }
            // The stories it started and never answered ran, but their
            // answers were lost (a step closed or replaced the worker's
            // channel): they fail. Run again, they would be lost again, for
            // ever.
            if let lastStarted = snapshot.lastStarted {
                for sequence in worker.dispatched where sequence <= lastStarted {
                    guard let flight = take(sequence, from: worker) else { continue }
                    finish(
                        lost(flight.planned.story, "this story ran, but what its worker process said about it never reached storyrun "
                            + "(did a step close or replace descriptor \(WorkerMain.messages), the worker's channel to storyrun?)"),
                        matches: nil)
                }
            }
            // The stories it had not started go back to the front of the
            // queue (before those given back, which were sent later).
            requeueGivenBack()
            let unstarted = worker.dispatched.compactMap { inFlight.removeValue(forKey: $0)?.planned }
            if !unstarted.isEmpty {
                queue.insert(contentsOf: unstarted, at: 0)
            }
            worker.dispatched = SentStories()
            worker.release()
            workers.removeAll { $0 === worker }
            // What its steps started and left running ends with it.
            Orphans.endHandedOver(keeping: Set(workers.map(\.process.pid) + Self.retired))
            // A worker that never got ready is not replaced: its successor
            // would fail the same way, for ever.
            let hasWork = !queue.isEmpty || !isSourceDone
            if !isStopping && hasWork && worker.isReady { startWorker() }
        }

        // The last story file named in a request, as requests write it:
        // a batch's stories mostly share their file.
        var lastPath: (file: String, path: [UInt8]) = ("", WorkerWire.requestPath(""))
        // A batch's request lines, written into one buffer kept from batch
        // to batch.
        var requests: [UInt8] = []
        /// Sends the worker the next batch of stories; false when none is
        /// left. With several workers a batch fills the worker's window.
        func sendBatch(to worker: SupervisedWorker) -> Bool {
            var batch = workerCount > 1 ? max(1, window - worker.dispatched.count) : fullBatch
            fill(batch)
            guard !queue.isEmpty else { return false }
            if workerCount > 1 && isSourceDone {
                // At the end, no worker holds more than its share of what is
                // left: the last stories are not all sent to one of them.
                let held = workers.reduce(0) { $0 + $1.dispatched.count }
                let share = (queue.count + held + workers.count - 1) / workers.count
                batch = min(batch, share - worker.dispatched.count)
                guard batch > 0 else { return false }
            }
            var count = min(batch, queue.count)
            if storiesAreQuick && !isSourceDone {
                let file = queue[count - 1].story.location.file
                while count < 256 {
                    if count == queue.count { fill(count + batch) }
                    guard count < queue.count, queue[count].story.location.file == file else { break }
                    count += 1
                }
            }
            let sentAt = now()
            requests.removeAll(keepingCapacity: true)
            for planned in queue[..<count] {
                let sequence = nextSequence
                nextSequence += 1
                inFlight[sequence] = InFlight(planned: planned, sentAt: sentAt)
                worker.dispatched.append(sequence)
                let file = planned.story.location.file
                if file != lastPath.file { lastPath = (file, WorkerWire.requestPath(file)) }
                WorkerWire.appendRequest(
                    sequence: sequence, story: planned.story, attemptsUsed: attemptsUsed[planned.story.location] ?? 0,
                    path: lastPath.path, to: &requests)
            }
            worker.send(requests)
            // The stories sent leave the queue at once (moving the few not
            // sent is cheap): `inFlight` holds them until answered, so each
            // is freed with its result. Kept until 4096 had gone, they held
            // megabytes the parsing thread's heap grew a page fault at a
            // time, and were freed thousands at once, long since out of cache.
            queue.removeFirst(count)
            return true
        }

        var fds: [pollfd] = []
        while true {
            if let signal = Interrupts.received, !isStopping || !summary.wasInterrupted {
                isStopping = true
                summary.wasInterrupted = true
                for worker in workers { worker.kill(.interrupted(signal)) }
            }
            // Hand out work: up to each worker's window, not a batch per
            // wait, or a worker that answers a batch at a time idles while
            // it asks for the next.
            if !isStopping {
                // The idlest first.
                for worker in workers.sorted(by: { $0.dispatched.count < $1.dispatched.count })
                where worker.isReady && !worker.hasEnded && !worker.hasStopped {
                    while worker.dispatched.count < window, sendBatch(to: worker) {}
                }
            }
            // Tell idle workers when there is nothing more: nothing to send,
            // and nothing another worker may yet give back.
            let hasWork = !queue.isEmpty || !isSourceDone
            if !isStopping && !hasWork && workerCount > 1 { takeBackWork() }
            let mayGiveBack = !isStopping && workers.contains { $0.givingBack != nil || $0.dispatched.count >= 2 }
            for worker in workers {
                worker.flush()
                // A lone worker is never asked for stories back: once all
                // are sent it may see the end of its requests at once, and
                // go on to its after-run hooks without a round trip.
                let mayClose = worker.dispatched.isEmpty || workerCount == 1
                if worker.isReady && mayClose && !worker.hasUnsent && (isStopping || !hasWork && (workerCount == 1 || !mayGiveBack)) {
                    worker.closeRequests()
                }
            }
            if workers.isEmpty {
                if !isStopping && hasWork && startFailure == nil { startWorker() }
                // Every worker ended in a crash (its last story's, say): the
                // run's after-run hooks still run, in a worker given no
                // story (after its before-run hooks, as in any worker).
                if workers.isEmpty, hasAfterRunHooks, !afterRunHooksRan, !startedForAfterRunHooks, everReady, startFailure == nil,
                    !summary.wasInterrupted
                {
                    startedForAfterRunHooks = true
                    startWorker()
                }
                if workers.isEmpty { break }
            }

            // Wait for a word from any worker, or 50 ms (5 ms while more
            // workers may start: a long story shows by its running time),
            // with what is to be said so far said.
            StandardOutput.flush()
            fds = workers.map { pollfd(fd: $0.messages, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), workers.count < workerCount && startFailure == nil && !isStopping ? 5 : 50)
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
            requeueGivenBack()
            // Overruns, deaths, and (with one worker) the story now running.
            let time = DispatchTime.now().uptimeNanoseconds
            // More workers only while there is work to share with them.
            if workers.count < workerCount, startFailure == nil, !isStopping,
                !queue.isEmpty || !isSourceDone || workers.contains(where: { $0.dispatched.count >= 2 }),
                demand.wantsMore(longestRunning: longestRunning(at: time))
            {
                while workers.count < workerCount && startFailure == nil { startWorker() }
            }
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
        }

        PhaseTimer.mark("workers-ended")
        // A story a crash ended, waiting to run again (--retry) when the run
        // stopped (--fail-fast, an interrupt), ran and failed: its latest
        // attempt is its result, the others its earlier attempts; it is
        // never "not run", its crash never dropped.
        if !crashedAttempts.isEmpty {
            func finishCrashed(_ planned: PlannedStory) -> Bool {
                let location = planned.story.location
                guard var attempts = crashedAttempts.removeValue(forKey: location), let last = attempts.popLast() else { return false }
                if !attempts.isEmpty { crashedAttempts[location] = attempts }
                finish(
                    StoryResult(story: planned.story, status: last.status, testSteps: last.testSteps, duration: last.duration),
                    matches: planned.matches)
                return true
            }
            queue = queue.filter { !finishCrashed($0) }
            for (sequence, flight) in inFlight.sorted(by: { $0.key < $1.key }) where finishCrashed(flight.planned) {
                inFlight[sequence] = nil
            }
        }
        // Whatever was never run is counted, never silently dropped.
        var notRunStories = queue.map(\.story.location)
        notRunStories += inFlight.sorted { $0.key < $1.key }.map(\.value.planned.story.location)
        while let planned = next() { notRunStories.append(planned.story.location) }
        let notRun = notRunStories.count
        summary.notRun = notRun
        summary.notRunStories = notRunStories
        if let startFailure, notRun > 0 || !everReady {
            warn("storyrun: \(startFailure)")
            summary.runErrors.append(startFailure)
        }
        if notRun > 0 {
            warn("storyrun: \(notRun) stor\(notRun == 1 ? "y was" : "ies were") not run" + (summary.wasInterrupted ? " (the run was interrupted)" : hasFailedBeforeRun ? " (a before-run hook failed)" : isStopping ? " (--fail-fast)" : ""))
        }
        summary.unusedDefinitions = registry.definitions
            .filter { !isUsed[$0.id] }
            .map { UnusedDefinition(pattern: $0.pattern, location: $0.location, isFromLibrary: $0.isFromLibrary) }
        return summary
    }

    /// How long a story whose worker died had run: from when the worker
    /// started it (or its latest attempt), not from when it was sent, which
    /// may be hundreds of stories earlier.
    private static func elapsed(since snapshot: SharedPosition.Snapshot, sentAt: UInt64, now: () -> UInt64) -> UInt64 {
        guard snapshot.storyStart != 0 else { return now() &- sentAt }
        return DispatchTime.now().uptimeNanoseconds &- snapshot.storyStart
    }

    /// The result of a story that passed, from its compact line: the
    /// definitions and captured texts come from the worker, so the parent
    /// need not match; nil when the line does not fit the story.
    private func rebuild(_ planned: PlannedStory, duration: UInt64, testSteps: [WorkerWire.PassedTestStep]) -> StoryResult? {
        let story = planned.story
        var results: [TestStepResult] = []
        results.reserveCapacity(testSteps.count)
        var index = 0
        for testStep in testSteps {
            if let hook = testStep.hook {
                guard hook >= 0, hook < registry.hooks.count else { return nil }
                let registered = registry.hooks[hook]
                results.append(.hook(HookResult(
                    kind: registered.kind.rawValue, location: registered.location, status: .passed, error: nil, duration: testStep.duration)))
            } else {
                guard index < story.steps.count, testStep.definition >= 0, testStep.definition < registry.definitions.count else { return nil }
                let definition = registry.definitions[testStep.definition]
                results.append(.step(StepResult(
                    step: story.steps[index], status: .passed, duration: testStep.duration, error: nil,
                    match: MatchInfo(definition, arguments: testStep.arguments), alsoMatched: [])))
                index += 1
            }
        }
        guard index == story.steps.count else { return nil }
        return StoryResult(story: story, status: .passed, testSteps: results, duration: duration)
    }

    /// Whether running a crashed story again could change its verdict, by
    /// the runner's rule (``Runner/canChange(_:isStrict:)``). Matched here
    /// only for a story whose worker crashed (this process does not match
    /// otherwise).
    private func canChange(_ planned: PlannedStory) -> Bool {
        Runner.canChange(planned.matches ?? planned.story.steps.map { registry.matches($0) }, isStrict: configuration.isStrict)
    }

    /// A story its worker could not run.
    private func lost(_ story: Story, _ reason: String) -> StoryResult {
        let error = StepError(message: reason)
        var steps = story.steps.map { StepResult(step: $0, status: .skipped, duration: 0, error: nil, match: nil, alsoMatched: []) }
        if !steps.isEmpty {
            steps[0].status = .failed
            steps[0].error = error
            return StoryResult(story: story, status: .failed, steps: steps, duration: 0)
        }
        return StoryResult(
            story: story, status: .failed,
            testSteps: [.hook(HookResult(kind: "story", location: story.location, status: .failed, error: error, duration: 0))], duration: 0)
    }
}
