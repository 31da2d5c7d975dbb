import Foundation

/// Reading answers: a worker's lines, each checked against what the parent
/// knows before it is believed (see "Worker processes" for the threat
/// model).
extension SupervisedRun {
    /// A story's result, as the run's events and totals. A long story's
    /// result is freed on the release thread (``ReleaseThread``).
    mutating func finish(_ result: consuming StoryResult, matches: [MatchResult]?) {
        // Nearly always empty: no place to hash.
        if !attemptsUsed.isEmpty { attemptsUsed[result.story.location] = nil }
        if !crashedAttempts.isEmpty, let earlier = crashedAttempts.removeValue(forKey: result.story.location) {
            result.earlierAttempts = earlier + result.earlierAttempts
        }
        finishedCount += 1
        finishedNanoseconds &+= result.duration
        if workerCount > 1 { demand.noteFinished(duration: result.duration) }
        if configuration.emitsStoryProgress { Self.replayProgress(of: result, emit: emit) }
        rules.storyFinished(result, matches: matches)
        let isLong = result.testSteps.count > WorkerWire.partSize
        let event = RunEvent.storyFinished(result)
        emit(event)
        if isLong { ReleaseThread.free(event) }
    }

    /// The events an in-process run emits while a story runs, replayed
    /// from its result once its worker has answered, so that a reporter
    /// sees the same stream whichever way stories run: the story's start,
    /// then for each step its start, when its code ran (it passed, failed,
    /// was pending, or skipped the story with a reason), and its end. (A
    /// step that calls `skip()` without a reason is told from one skipped
    /// before it ran by neither its result nor this replay: it has no start.)
    static func replayProgress(of result: StoryResult, emit: (RunEvent) -> Void) {
        emit(.storyStarted(result.story))
        for index in result.testSteps.indices {
            guard case .step(let step) = result.testSteps[index] else { continue }
            if step.codeRan { emit(.stepStarted(step.step)) }
            emit(.stepFinished(step))
        }
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
    mutating func isOwnAnswer(_ sequence: UInt64, from worker: SupervisedWorker, isResult: Bool, fromOutbox: Bool) -> Bool {
        let inTurn = worker.lastAnswered.map { sequence > $0 } ?? true
        // One slot of the shared page, not a whole snapshot, per answer.
        let finished = !isResult || worker.position.lastFinished.map { sequence <= $0 } ?? false
        if inTurn && finished {
            worker.lastAnswered = sequence
            return true
        }
        if !fromOutbox {
            let snapshot = worker.position.snapshot
            rules.runFailedOutsideStories()
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

    /// One line from a worker.
    mutating func handle(_ message: WorkerWire.Message, from worker: SupervisedWorker, fromOutbox: Bool = false) {
        switch message {
        case .ready(let build):
            guard isSameBuild(build, worker: worker, fromOutbox: fromOutbox) else { return }
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
            guard worker.requestsAreClosed || rules.hasFailedBeforeRun, worker.position.snapshot.phase == .done else { return }
            worker.hasEnded = true
            afterRunHooksRan = true
            // It has said everything and ended what its steps started:
            // end it now rather than wait for its exit.
            worker.process.killGroup()
        case .runHook(let hook):
            handleRunHook(hook)
        case .diagnostic(let diagnostic):
            if seenDiagnostics.insert(diagnostic).inserted { emit(.diagnostic(diagnostic)) }
        case .used(let ids):
            if let bad = ids.first(where: { $0 < 0 || $0 >= registry.definitions.count }) {
                reject(worker, "a line of definitions used naming definition \(bad), of \(registry.definitions.count)", fromOutbox: fromOutbox)
                return
            }
            for id in ids { rules.markUsed(id) }
        case .invalid(let what):
            reject(worker, what, fromOutbox: fromOutbox)
        case .passed, .compact, .result:
            handleAnswer(message, from: worker, fromOutbox: fromOutbox)
        case .part, .wholeStep:
            handlePart(message, from: worker, fromOutbox: fromOutbox)
        case .stopped(let sequence, let text):
            handleStopped(sequence, text, from: worker)
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

    private mutating func handleRunHook(_ hook: HookResult) {
        if hook.status == .failed {
            // A failed before-run hook: the run's setup failed, no story
            // runs (the worker runs none either).
            rules.runHookFailed(hook.kind == Hook.Kind.beforeRun.rawValue ? .beforeRun : .afterRun)
            let diagnostic = Diagnostic(at: hook.location, problem: hook.error?.message ?? "the \(hook.kind) hook failed")
            if seenDiagnostics.insert(diagnostic).inserted { emit(.diagnostic(diagnostic)) }
        }
        emit(.runHookFinished(hook))
    }

    /// A story's answer: passed (compact), a whole result, or missing.
    private mutating func handleAnswer(_ message: WorkerWire.Message, from worker: SupervisedWorker, fromOutbox: Bool) {
        switch message {
        case .passed(let sequence, let duration, let testSteps), .compact(let sequence, _, let duration, let testSteps):
            guard isOwnAnswer(sequence, from: worker, isResult: true, fromOutbox: fromOutbox),
                let flight = take(sequence, from: worker)
            else { return }
            var status = StoryStatus.passed
            if case .compact(_, let said, _, _) = message { status = said }
            // A long story's parts come first (`WorkerWire+Parts.swift`).
            let result: StoryResult? =
                if var partial = worker.takePartial() {
                    // Every part plain (``PartialAnswer/compact``): each
                    // step rebuilt from its definition's id, none to find.
                    partial.sequence == sequence
                        ? partial.compact(
                            flight.planned, status: status, duration: duration, rest: testSteps, registry: registry,
                            style: supervisor.configuration.snippetStyle)
                        : nil
                } else {
                    supervisor.rebuild(flight.planned, status: status, duration: duration, testSteps: testSteps)
                }
            settle(flight, result, unfit: "its worker's answer did not fit the story", from: worker, fromOutbox: fromOutbox)
        case .result(let sequence, let wire):
            guard isOwnAnswer(sequence, from: worker, isResult: true, fromOutbox: fromOutbox),
                let flight = take(sequence, from: worker)
            else { return }
            // "Passed" with no steps, say: a passed story accounts for
            // every step the parent planned.
            let result: StoryResult? =
                if var partial = worker.takePartial() {
                    withCheckedClaims(partial.sequence == sequence ? partial.whole(wire).result(for: flight.planned.story) : nil)
                } else {
                    withCheckedClaims(wire.result(for: flight.planned.story))
                }
            settle(
                flight, result, unfit: "its worker's answer did not account for the story's steps", from: worker, fromOutbox: fromOutbox)
        default:
            return
        }
    }

    /// `result` with each match's definition id and spans checked
    /// (``WorkerClaims``): a worker's word, dropped when it does not fit.
    private func withCheckedClaims(_ result: StoryResult?) -> StoryResult? {
        guard var result else { return nil }
        WorkerClaims.check(&result, registry: registry)
        result.changeEveryAttempt { tellUndefinedSteps(in: &$0) }
        return result
    }

    /// Each undefined step told as the runner tells it, by the parent: a
    /// worker leaves out what it was probably meant for and its snippet
    /// (``Runner/Configuration/tellsUndefinedSteps``).
    private func tellUndefinedSteps(in testSteps: inout [TestStepResult]) {
        for index in testSteps.indices {
            guard case .step(var step) = testSteps[index], step.status == .undefined else { continue }
            let details = StoryExecution.undefinedDetails(for: step.step, in: registry, style: supervisor.configuration.snippetStyle)
            step.didYouMean = details.didYouMean
            step.snippet = details.snippet
            testSteps[index] = .step(step)
        }
    }

    /// A part of a long story's answer (`WorkerWire+Parts.swift`): the
    /// worker's own only for the story it is running or has finished and
    /// not yet answered, after the parts before it; each checked against
    /// the story as it comes.
    private mutating func handlePart(_ message: WorkerWire.Message, from worker: SupervisedWorker, fromOutbox: Bool) {
        let sequence: UInt64
        switch message {
        case .part(let number, _), .wholeStep(let number, _): sequence = number
        default: return
        }
        let inTurn = worker.lastAnswered.map { sequence > $0 } ?? true
        let reached = worker.position.lastFinished.map { sequence <= $0 } ?? false || worker.position.snapshot.story == sequence
        guard inTurn, reached, worker.partial.map({ $0.sequence == sequence }) ?? true, let flight = inFlight[sequence],
            worker.dispatched.contains(sequence)
        else {
            reject(worker, "a part of an answer out of turn", fromOutbox: fromOutbox)
            return
        }
        var partial = worker.partial ?? PartialAnswer(sequence: sequence)
        worker.partial = nil
        let fits = switch message {
        case .part(_, let testSteps):
            partial.add(testSteps, story: flight.planned.story, registry: registry, style: supervisor.configuration.snippetStyle)
        case .wholeStep(_, let testStep): partial.add(testStep, story: flight.planned.story)
        default: false
        }
        guard fits else {
            // Failed now, not at its last line: the worker is ended.
            guard let flight = take(sequence, from: worker) else { return }
            settle(flight, nil, unfit: "its worker's answer did not fit the story", from: worker, fromOutbox: fromOutbox)
            return
        }
        worker.partial = partial
    }

    /// A story's answer, or, when it did not fit the story (nil), a failure
    /// saying `unfit` and the worker ended.
    private mutating func settle(
        _ flight: consuming InFlight, _ result: consuming StoryResult?, unfit: String, from worker: SupervisedWorker, fromOutbox: Bool
    ) {
        if let result {
            let isLong = flight.planned.story.steps.count > WorkerWire.partSize
            finish(result, matches: flight.planned.matches)
            if isLong { ReleaseThread.free(flight) }
            return
        }
        finish(Supervisor.lost(flight.planned.story, unfit), matches: nil)
        reject(worker, "an answer that did not fit the story \"\(flight.planned.story.name)\"", fromOutbox: fromOutbox)
    }

    /// It could open no more story files (a step leaked its descriptors,
    /// say) and ends without starting this story: no story is to blame.
    /// Those it had not started go to a new worker when it is buried; the
    /// run fails, saying why. The worker's own only (it notes it on the
    /// shared page first), not a line a step wrote to its channel.
    private mutating func handleStopped(_ sequence: UInt64, _ text: String, from worker: SupervisedWorker) {
        guard !worker.hasStopped, worker.dispatched.contains(sequence), worker.position.stoppedBefore == sequence else { return }
        worker.hasStopped = true
        worker.closeRequests()
        rules.runFailedOutsideStories()
        emit(.diagnostic(Diagnostic(at: nil, problem: text + (rules.isStopping ? "" : "; the run went on with a new worker"))))
    }

    /// Whether a worker's ready line names this executable's build
    /// (``BuildID``). A worker of another build — started from a path whose
    /// executable was rebuilt or replaced since the run began — speaks
    /// another build's wire: it is stopped, no worker is started again, and
    /// the stories left are reported not run, with why.
    mutating func isSameBuild(_ build: String?, worker: SupervisedWorker, fromOutbox: Bool) -> Bool {
        guard !fromOutbox, let own = BuildID.current, build != own else { return true }
        let theirs = build.map { "build \($0)" } ?? "a build that does not say its build id"
        startFailure = startFailure ?? "the worker process started from \(SupervisedWorker.executablePath) is \(theirs), "
            + "not this run's build \(own): the executable was rebuilt or replaced while storyrun ran; run storyrun again"
        worker.kill(.badAnswer("a ready line of another build of storyrun"))
        return false
    }

    /// A line from `worker` that is not the worker's own (no message, or
    /// a claim the parent can check and found wrong): the worker is
    /// ended (the story it is in fails, saying why, and the stories it
    /// had not started go to another) and the run fails with a note. A
    /// line from the outbox of a worker that is gone is only dropped.
    mutating func reject(_ worker: SupervisedWorker, _ what: String, fromOutbox: Bool) {
        guard !fromOutbox, worker.killReason == nil else { return }
        let running = worker.position.snapshot.story.flatMap { inFlight[$0]?.planned.story }
        rules.runFailedOutsideStories()
        emit(.diagnostic(Diagnostic(
            at: running?.location,
            problem: "a worker process's channel to storyrun (descriptor \(WorkerMain.messages)) carried \(what), which the worker never sends: "
                + "a step wrote to it\(running.map { ", in the story now running, \"\($0.name)\" (\($0.location.fileAndLine)), or in one before it in that worker" } ?? ""); "
                + "storyrun stopped that worker, and the run fails")))
        worker.kill(.badAnswer(what))
    }
}

extension StepResult {
    /// Whether the step's own code ran, as far as its result tells: it
    /// passed, failed (a crash or a time limit too), was pending, or
    /// skipped the story with a reason.
    var codeRan: Bool {
        switch status {
        case .passed, .failed, .pending: true
        case .skipped: error != nil
        case .undefined, .ambiguous: false
        }
    }
}
