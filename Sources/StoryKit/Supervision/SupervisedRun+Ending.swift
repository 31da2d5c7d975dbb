import Foundation

/// The end of a supervised run: crashed attempts settled, stories not run
/// gathered.
extension SupervisedRun {
    /// The stories taken from `next` and not run, once no worker is left
    /// (the run's rules say what of them, see ``RunCoordinator``).
    mutating func end() -> [SourceLocation] {
        settleCrashedAttempts()
        // Whatever was never run is counted, never silently dropped.
        var notRunStories = queue.map(\.story.location)
        notRunStories += inFlight.sorted { $0.key < $1.key }.map(\.value.planned.story.location)
        while let planned = next() { notRunStories.append(planned.story.location) }
        if let startFailure, !notRunStories.isEmpty || !everReady {
            warn("storyrun: \(startFailure)")
            rules.runError(startFailure)
        }
        return notRunStories
    }

    /// A story a crash ended, waiting to run again (--retry) when the run
    /// stopped (--fail-fast, an interrupt), ran and failed: its latest
    /// attempt is its result, the others its earlier attempts; it is never
    /// "not run", its crash never dropped.
    private mutating func settleCrashedAttempts() {
        guard !crashedAttempts.isEmpty else { return }
        let waiting = queue
        queue = []
        for planned in waiting where !finishCrashed(planned) { queue.append(planned) }
        for (sequence, flight) in inFlight.sorted(by: { $0.key < $1.key }) where finishCrashed(flight.planned) {
            inFlight[sequence] = nil
        }
    }

    private mutating func finishCrashed(_ planned: PlannedStory) -> Bool {
        let location = planned.story.location
        guard var attempts = crashedAttempts.removeValue(forKey: location), let last = attempts.popLast() else { return false }
        if !attempts.isEmpty { crashedAttempts[location] = attempts }
        finish(
            StoryResult(story: planned.story, status: last.status, testSteps: last.testSteps, duration: last.duration),
            matches: planned.matches)
        return true
    }
}
