#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The worker side of a supervised run: this executable again, started by
/// its parent with `--worker`, running the stories the parent sends (whole:
/// it reads no story file).
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
        guard let shared = attach() else {
            FileHandle.standardError.write(Data("storyrun: --worker is started by storyrun itself, not by hand\n".utf8))
            return .inputError
        }
        let outbox = WorkerOutbox(position: shared, descriptor: messages)
        // Before any hook runs: one that uses up the descriptors would
        // leave none to read it with.
        let build = BuildID.current
        // Stories read and matched ahead of the one running (see below).
        let reader = AheadReader(source: StorySource(registry: registry), outbox: outbox)
        let ahead = reader.ahead
        Lifeline.start(outbox: outbox) { giveBack(from: ahead, position: shared, outbox: outbox) }
        let probe = WorkerProbe(position: shared, capture: OutputCapture(file: STDOUT_FILENO))
        // The parent tells undefined steps (see `SupervisedRun+Answers.swift`).
        var told = configuration
        told.tellsUndefinedSteps = false
        var runner = Runner(registry: registry, configuration: told, probe: probe, now: clock)
        let answers = WorkerAnswers(registry: registry, position: shared, outbox: outbox, streamsParts: configuration.retries == 0)
        probe.stepEnded = answers.stepEnded
        shared.enter(.beforeRun)
        await runner.begin(emit: answers.forward)
        shared.enter(.stories)
        outbox.send(WorkerWire.line(.ready(build: build)))
        PhaseTimer.mark("ready")
        reader.start()
        // A before-run hook failed: no story runs. Those sent stay
        // unanswered; the parent, told of the hook, sends no more and
        // counts them not run.
        var watch = DescriptorWatch()
        stories: while !runner.hasFailedBeforeRun, let next = reader.next() {
            defer { reader.recycle(next) }
            answers.sequence = next.sequence
            switch await run(next, runner: &runner, watch: &watch, answers: answers, probe: probe) {
            case .ran, .skipped: break
            case .stop: break stories
            }
            // Its answers can no longer reach the parent: take no more
            // stories. The parent fails the story that lost the channel and
            // runs the ones sent after it in a new worker.
            if outbox.isChannelLost { break }
        }
        PhaseTimer.mark("ran")
        shared.enter(.afterRun)
        _ = await runner.finish(emit: answers.forward)
        outbox.send(WorkerWire.line(.used(runner.usedDefinitionIDs)))
        shared.enter(.done)
        // Whatever the steps started and left running ends now, so the
        // parent, told the worker is done, need not wait for it to exit.
        Orphans.end(keeping: [])
        outbox.send(WorkerWire.line(.end))
        PhaseTimer.mark("end")
        return .success
    }

    /// Takes the parent's channels and shared page; nil when this process
    /// was not started by a parent.
    private static func attach() -> SharedPosition? {
        // Nothing the steps start inherits the parent's channels.
        for descriptor in [requests, messages, position] { Descriptors.closeOnExec(descriptor) }
        guard let shared = SharedPosition.map(fileDescriptor: position) else { return nil }
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
        return shared
    }

    /// What became of a story sent.
    private enum Turn { case ran, skipped, stop }

    /// Runs one story sent, or stops before it when a story before it
    /// left the worker no descriptor (see ``DescriptorWatch``).
    private static func run(
        _ next: WorkerStory, runner: inout Runner, watch: inout DescriptorWatch, answers: WorkerAnswers, probe: WorkerProbe
    ) async -> Turn {
        let (shared, outbox, sequence) = (answers.position, answers.outbox, next.sequence)
        // Asked back (another worker has nothing left): not started here.
        if shared.givesBack(sequence) {
            outbox.send(WorkerWire.line(.givenBack(sequence: sequence)))
            return .skipped
        }
        if let reason = watch.leakBefore() {
            shared.stopBefore(sequence)
            outbox.send(WorkerWire.line(.stopped(sequence: sequence, reason)))
            return .stop
        }
        shared.startStory(sequence, attempt: next.attemptsUsed, at: DispatchTime.now().uptimeNanoseconds)
        await runner.run(next.planned, attemptsUsed: next.attemptsUsed, emit: answers.forward)
        shared.endStory()
        probe.trim()
        watch.ran(next.planned.story)
        return .ran
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
