import Foundation

/// A worker that has gone: the story or run hook it was in fails, with what
/// it printed (and, when it crashed, where); the stories it had not started
/// go to another worker.
extension SupervisedRun {
    /// What a worker that has gone printed since the test step it was
    /// in began; when it crashed, its stack trace symbolized.
    mutating func crashReport(of worker: SupervisedWorker, since snapshot: SharedPosition.Snapshot, reason: WorkerFailure.Reason) -> CrashReport {
        let printed = worker.printed(since: snapshot)
        guard case .signal = reason else { return CrashReport(printed: printed, site: nil) }
        let reader = symbolizer ?? Symbolizer(path: SupervisedWorker.executablePath)
        symbolizer = reader
        return CrashReport.reading(printed, symbolizer: reader)
    }

    /// A worker has gone: blame the story it was in, hand on the rest.
    mutating func bury(_ worker: SupervisedWorker, ending: ChildProcess.Ending) {
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
        // In its run hooks by the parent's own knowledge, not by the
        // phase on the shared page, which a hook may have overwritten
        // (a before-run hook that marked it done was replaced for ever;
        // an after-run hook that marked it done and exited 0 passed):
        // before it said it was ready, or in a hook once it was told no
        // more stories come and answered every one.
        let inRunHooks = !worker.isReady
            || worker.requestsAreClosed && worker.dispatched.isEmpty && snapshot.stepKind == .hook
        if !worker.hasEnded {
            if inRunHooks {
                blameRunHook(of: worker, at: snapshot, reason: reason)
            } else {
                noteIdleEnding(of: worker, at: snapshot, reason: reason)
                blameStory(of: worker, at: snapshot, reason: reason)
            }
        }
        noteSkippedAfterRunHooks(of: worker, at: snapshot)
        failLostAnswers(of: worker, at: snapshot)
        handOnUnstarted(of: worker)
    }

    /// It went in a run hook (or before it was ready): the hook fails, or
    /// the run cannot start.
    private mutating func blameRunHook(of worker: SupervisedWorker, at snapshot: SharedPosition.Snapshot, reason: WorkerFailure.Reason) {
        // An interrupted run says so once, as "not run (the run was
        // interrupted)", not as a worker that failed to start.
        let isInterrupted = if case .interrupted = reason { true } else { false }
        if snapshot.stepKind == .hook, snapshot.hookIndex < registry.hooks.count {
            let crash = crashReport(of: worker, since: snapshot, reason: reason)
            let hook = WorkerFailure.runHook(
                registry.hooks[snapshot.hookIndex], reason: reason, printed: crash.printed, site: crash.site, elapsed: 0)
            rules.runFailedOutsideStories()
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
    }

    /// How many workers in a row may end by themselves between stories
    /// without having run one before the run stops starting them.
    static let idleEndingLimit = 3

    /// A worker that said it was ready and ended by itself before it ran
    /// a story (a hook's thread that calls `exit`, a worker that cannot
    /// take requests): its stories go to a new worker, which would end the
    /// same way, for ever. After ``idleEndingLimit`` in a row no worker is
    /// started again and the stories left are reported not run, saying why.
    /// A worker that ran a story, or was in one when it went (the story
    /// fails: the run moves on), starts the count again.
    private mutating func noteIdleEnding(of worker: SupervisedWorker, at snapshot: SharedPosition.Snapshot, reason: WorkerFailure.Reason) {
        guard worker.lastAnswered == nil, snapshot.story == nil, worker.killReason == nil else {
            idleEndings = 0
            return
        }
        idleEndings += 1
        guard idleEndings >= Self.idleEndingLimit else { return }
        startFailure = startFailure ?? "\(idleEndings) worker processes in a row ended by themselves (the last: \(reason)) "
            + "after they said they were ready and before they ran a story, so storyrun started no more: "
            + "a before-run hook may leave a thread or process that ends its worker"
    }

    /// It went among its stories: the one it was in fails at the test step
    /// it was in (or runs again, under --retry); between stories, the run
    /// says a worker ended, though none failed.
    private mutating func blameStory(of worker: SupervisedWorker, at snapshot: SharedPosition.Snapshot, reason: WorkerFailure.Reason) {
        let isInterrupted = if case .interrupted = reason { true } else { false }
        if let sequence = snapshot.story, let flight = take(sequence, from: worker) {
            let crash = crashReport(of: worker, since: snapshot, reason: reason)
            let result = WorkerFailure.result(
                for: flight.planned.story, registry: registry, at: snapshot, reason: reason, printed: crash.printed,
                site: crash.site, elapsed: Supervisor.elapsed(since: snapshot, sentAt: flight.sentAt, now: supervisor.now))
            if !isInterrupted, !rules.isStopping, snapshot.attempt < configuration.retries, supervisor.canChange(flight.planned) {
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

    /// Stopped for a lost channel before its after-run hooks, or between
    /// them: they did not run, and the run must not pass as if they had.
    private mutating func noteSkippedAfterRunHooks(of worker: SupervisedWorker, at snapshot: SharedPosition.Snapshot) {
        guard !worker.hasEnded, worker.killReason == .channelLost,
            snapshot.phase == .stories || snapshot.phase == .afterRun && snapshot.stepKind != .hook,
            let hook = registry.hooks.first(where: { $0.kind == .afterRun })
        else { return }
        rules.runFailedOutsideStories()
        emit(.diagnostic(Diagnostic(
            at: hook.location,
            problem: "the after-run hooks of a worker process did not run: " + WorkerFailure.message(.channelLost, printed: []))))
    }

    /// The stories it started and never answered ran, but their answers
    /// were lost (a step closed or replaced the worker's channel): they
    /// fail. Run again, they would be lost again, for ever.
    private mutating func failLostAnswers(of worker: SupervisedWorker, at snapshot: SharedPosition.Snapshot) {
        guard let lastStarted = snapshot.lastStarted else { return }
        for sequence in worker.dispatched where sequence <= lastStarted {
            guard let flight = take(sequence, from: worker) else { continue }
            finish(
                Supervisor.lost(flight.planned.story, "this story ran, but what its worker process said about it never reached storyrun "
                    + "(did a step close or replace descriptor \(WorkerMain.messages), the worker's channel to storyrun?)"),
                matches: nil)
        }
    }

    /// The stories it had not started go back to the front of the queue
    /// (before those given back, which were sent later); a new worker
    /// starts for them.
    private mutating func handOnUnstarted(of worker: SupervisedWorker) {
        requeueGivenBack()
        let unstarted = worker.dispatched.compactMap { inFlight.removeValue(forKey: $0)?.planned }
        if !unstarted.isEmpty {
            queue.insert(contentsOf: unstarted, at: 0)
        }
        worker.dispatched = SentStories()
        worker.release()
        workers.removeAll { $0 === worker }
        // What its steps started and left running ends with it.
        Orphans.endHandedOver(keeping: Set(workers.map(\.process.pid) + Supervisor.retired))
        // A worker that never got ready is not replaced, nor one after
        // workers in a row that ended before any story (``startFailure``):
        // its successor would fail the same way, for ever.
        let hasWork = !queue.isEmpty || !isSourceDone
        if !rules.isStopping && hasWork && worker.isReady && startFailure == nil { startWorker() }
    }
}
