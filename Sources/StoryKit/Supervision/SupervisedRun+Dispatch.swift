import Foundation

/// Handing stories out: batches, each worker's window, stories asked back,
/// and workers started and retired.
extension SupervisedRun {
    /// With several workers, once stories prove quick (under 0.2 ms on
    /// average), a batch runs on to the end of its file (up to 256
    /// stories): fewer, longer batches, each naming its file once.
    var storiesAreQuick: Bool {
        workerCount > 1 && !configuration.isFailFast && finishedCount >= 32 && finishedNanoseconds / finishedCount < 200_000
    }

    /// How many stories a worker may hold at once: enough that it never
    /// waits for the parent. Under --fail-fast, one: a story sent while
    /// the one before it runs would run (and be reported) after that one
    /// failed. With several workers, one each until a story has finished
    /// (so that a few slow stories are shared out, not taken by the first
    /// worker ready), then about 50 ms of them each by the average so far,
    /// at least two: few enough that none is left holding a queue while
    /// another idles at the end.
    var window: Int {
        if configuration.isFailFast { return 1 }
        if workerCount == 1 { return fullBatch * 8 }
        guard finishedCount > 0 else { return 1 }
        return Int(min(1024, max(2, 50_000_000 / max(1, finishedNanoseconds / finishedCount))))
    }

    mutating func startWorker() {
        do {
            workers.append(try SupervisedWorker.start(arguments: supervisor.workerArguments))
        } catch {
            startFailure = error.description
        }
    }

    /// How long the longest-running story has been running.
    func longestRunning(at time: UInt64) -> UInt64 {
        workers.reduce(0) { longest, worker in
            let snapshot = worker.position.snapshot
            guard snapshot.story != nil, snapshot.storyStart > 0, time > snapshot.storyStart else { return longest }
            return max(longest, time - snapshot.storyStart)
        }
    }

    /// More workers only while there is work to share with them, once the
    /// stories prove slow.
    mutating func startMoreWorkersIfSlow(at time: UInt64) {
        if workers.count < workerCount, startFailure == nil, !rules.isStopping,
            !queue.isEmpty || !isSourceDone || workers.contains(where: { $0.dispatched.count >= 2 }),
            demand.wantsMore(longestRunning: longestRunning(at: time))
        {
            while workers.count < workerCount && startFailure == nil { startWorker() }
        }
    }

    /// Fills the queue from the source so a batch is ready.
    mutating func fill(_ count: Int) {
        while !isSourceDone && queue.count < count {
            if let planned = next() { queue.append(planned) } else { isSourceDone = true }
        }
    }

    /// Hands out work: up to each worker's window, not a batch per wait,
    /// or a worker that answers a batch at a time idles while it asks for
    /// the next. The idlest first.
    mutating func handOut() {
        guard !rules.isStopping else { return }
        for worker in workers.sorted(by: { $0.dispatched.count < $1.dispatched.count })
        where worker.isReady && !worker.hasEnded && !worker.hasStopped {
            while worker.dispatched.count < window, sendBatch(to: worker) {}
        }
    }

    /// Tells idle workers when there is nothing more: nothing to send, and
    /// nothing another worker may yet give back.
    mutating func closeIdleWorkers(hasWork: Bool) {
        if !rules.isStopping && !hasWork && workerCount > 1 { takeBackWork() }
        let mayGiveBack = !rules.isStopping && workers.contains { $0.givingBack != nil || $0.dispatched.count >= 2 }
        for worker in workers {
            worker.flush()
            // A lone worker is never asked for stories back: once all
            // are sent it may see the end of its requests at once, and
            // go on to its after-run hooks without a round trip.
            let mayClose = worker.dispatched.isEmpty || workerCount == 1
            if worker.isReady && mayClose && !worker.hasUnsent && (rules.isStopping || !hasWork && (workerCount == 1 || !mayGiveBack)) {
                worker.closeRequests()
            }
        }
    }

    /// Sends the worker the next batch of stories; false when none is
    /// left. With several workers a batch fills the worker's window.
    mutating func sendBatch(to worker: SupervisedWorker) -> Bool {
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
        let sentAt = supervisor.now()
        requests.removeAll(keepingCapacity: true)
        // Each batch names its first story's file, and then each other.
        var file: (path: String, group: String)?
        for planned in queue[..<count] {
            let sequence = nextSequence
            nextSequence += 1
            inFlight[sequence] = InFlight(planned: planned, sentAt: sentAt)
            worker.dispatched.append(sequence)
            let story = planned.story
            if story.location.file != file?.path {
                if story.location.file != lastPath.file { lastPath = (story.location.file, WorkerWire.requestPath(story.location.file)) }
                file = (story.location.file, story.groupName)
                WorkerWire.appendFile(path: lastPath.path, group: story.groupName, to: &requests)
            }
            // A long story's lines go to the pipe as they are made: the
            // worker reads and matches its first parts while the parent
            // makes the rest (see ``StoryRequests``).
            WorkerWire.appendRequest(
                sequence: sequence, story: story, attemptsUsed: attemptsUsed[story.location] ?? 0, file: file!, to: &requests
            ) { made in
                worker.send(made)
                made.removeAll(keepingCapacity: true)
            }
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

    /// Puts the stories given back at the front of the queue.
    mutating func requeueGivenBack() {
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

    /// The story `sequence`, if it was sent to `worker` and not yet
    /// answered. Answers come in the order sent: almost always the first.
    /// Only a story sent to this worker: step code that writes a forged
    /// answer cannot claim another worker's story.
    mutating func take(_ sequence: UInt64, from worker: SupervisedWorker) -> InFlight? {
        guard worker.dispatched.remove(sequence) else { return nil }
        return inFlight.removeValue(forKey: sequence)
    }

    /// A worker that said it is done (and was killed at once) leaves the
    /// run without a wait for its exit.
    mutating func retire(_ worker: SupervisedWorker) {
        worker.release()
        workers.removeAll { $0 === worker }
        Supervisor.retired.append(worker.process.pid)
    }
}
