import Foundation

/// The end of a supervised run: crashed attempts settled, stories not run
/// counted, definitions no story used listed.
extension SupervisedRun {
    /// The run's totals, once no worker is left.
    mutating func end() -> RunSummary {
        settleCrashedAttempts()
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
        if let note = RunSummary.notRunNote(
            notRun, wasInterrupted: summary.wasInterrupted, hasFailedBeforeRun: hasFailedBeforeRun, isStopping: isStopping)
        {
            warn(note)
        }
        summary.unusedDefinitions = registry.unusedDefinitions(isUsed: isUsed)
        return summary
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

extension RunSummary {
    /// What a run says of the stories it selected and did not run, and
    /// why; nil when it ran them all. One wording for every way of running.
    static func notRunNote(_ count: Int, wasInterrupted: Bool, hasFailedBeforeRun: Bool, isStopping: Bool) -> String? {
        guard count > 0 else { return nil }
        let why = wasInterrupted ? " (the run was interrupted)" : hasFailedBeforeRun ? " (a before-run hook failed)" : isStopping ? " (--fail-fast)" : ""
        return "storyrun: \(count) stor\(count == 1 ? "y was" : "ies were") not run" + why
    }
}

extension StepRegistry {
    /// The definitions no story used, from the run's marks by definition
    /// id: listed in the summary (a library's only when asked).
    func unusedDefinitions(isUsed: [Bool]) -> [UnusedDefinition] {
        definitions
            .filter { !isUsed[$0.id] }
            .map { UnusedDefinition(pattern: $0.pattern, location: $0.location, isFromLibrary: $0.isFromLibrary) }
    }
}
