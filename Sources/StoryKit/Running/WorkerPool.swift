import Foundation

/// The parent side of `--jobs N` and `--isolate`: starts worker processes
/// (this executable again, with `--worker`), hands each one story at a time,
/// and turns their event lines back into events for the reporters.
///
/// A worker that dies, or stays silent past the step time limit, costs only
/// the story it was running: that story is reported as crashed or timed out
/// at the step it was in, and a fresh worker takes the rest.
struct WorkerPool {
    let size: Int
    let workerArguments: [String]
    let stepTimeout: Double
    let isFailFast: Bool
    let now: @Sendable () -> UInt64

    /// Runs the stories and emits their events; returns the totals (without
    /// unused definitions, which come from the workers' own totals).
    func run(_ stories: [Story], emit: (RunEvent) -> Void, output: (String) -> Void) async -> RunSummary {
        var summary = RunSummary()
        var queue = stories[...]
        let (messages, continuation) = AsyncStream<WorkerMessage>.makeStream()
        var workers: [Int: WorkerProcess] = [:]
        var nextID = 0
        var unusedByWorker: [[UnusedDefinition]] = []
        var seenDiagnostics: Set<Diagnostic> = []
        var isStopping = false

        func startWorker() {
            guard let worker = WorkerProcess(id: nextID, arguments: workerArguments, messages: continuation) else { return }
            workers[nextID] = worker
            nextID += 1
        }
        for _ in 0..<min(size, stories.count) { startWorker() }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 200_000_000)
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }

        func dispatch(to worker: WorkerProcess) {
            if !isStopping, let story = queue.popFirst() {
                worker.send(story)
                emit(.storyStarted(story))
            } else {
                worker.closeInput()
            }
        }

        for await message in messages {
            switch message {
            case .tick:
                for worker in workers.values where worker.isSilent(for: stepTimeout + 2) {
                    worker.kill(timedOut: true)
                }
            case .line(let id, let text):
                guard let worker = workers[id] else { continue }
                worker.heard()
                if text == Worker.readyLine {
                    dispatch(to: worker)
                } else if let event = EventLine.decode(text) {
                    switch event {
                    case .runStarted, .runHookFinished: break
                    case .runFinished(let totals): unusedByWorker.append(totals.unusedDefinitions)
                    case .stepStarted(let step):
                        worker.currentStep = step
                        emit(event)
                    case .storyFinished(let result):
                        worker.current = nil
                        summary.add(result)
                        if isFailFast && result.status == .failed { isStopping = true }
                        for step in result.steps { emit(.stepFinished(step)) }
                        emit(event)
                    case .diagnostic(let diagnostic):
                        if seenDiagnostics.insert(diagnostic).inserted { emit(event) }
                    case .storyStarted, .stepFinished:
                        emit(event)
                    }
                } else {
                    output(text)
                }
            case .exited(let id, let reason):
                guard let worker = workers.removeValue(forKey: id) else { continue }
                if let story = worker.current {
                    let result = WorkerFailure.result(for: story, at: worker.currentStep, reason: worker.didTimeOut ? .timedOut(stepTimeout) : reason, elapsed: now() &- worker.storyStart)
                    summary.add(result)
                    if isFailFast { isStopping = true }
                    for step in result.steps { emit(.stepFinished(step)) }
                    emit(.storyFinished(result))
                }
                if !queue.isEmpty && !isStopping { startWorker() }
                if workers.isEmpty {
                    continuation.finish()
                }
            }
        }
        summary.unusedDefinitions = unusedByWorker.dropFirst().reduce(unusedByWorker.first ?? []) { common, next in
            common.filter(next.contains)
        }
        return summary
    }
}

/// What a worker's reader thread reports to the pool.
enum WorkerMessage: Sendable {
    case line(Int, String)
    case exited(Int, WorkerFailure.Reason)
    case tick
}
