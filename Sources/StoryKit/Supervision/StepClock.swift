/// The parent's own clock on the test step a worker is in: the time limit
/// (`--step-timeout`, for steps and hooks alike) counts from when the parent
/// first saw the worker at that test step, never from a deadline the worker
/// wrote on the shared page, which step code can overwrite (a step that kept
/// writing 0 there escaped its limit; a small number would have failed a
/// step that was within it).
///
/// The parent looks at least every 50 ms, so a step overruns at most that
/// long before it is seen to; the worker's own watchdog fails a step that
/// returns late, this one ends a worker whose step does not return.
struct StepClock {
    /// Where a worker is: a change of any of these is a new test step.
    struct Place: Equatable {
        var story: UInt64?
        var attempt: Int
        var storyStart: UInt64
        var stepKind: SharedPosition.StepKind
        var stepIndex: Int
        var hookIndex: Int

        init(_ snapshot: SharedPosition.Snapshot) {
            story = snapshot.story
            attempt = snapshot.attempt
            storyStart = snapshot.storyStart
            stepKind = snapshot.stepKind
            stepIndex = snapshot.stepIndex
            hookIndex = snapshot.hookIndex
        }
    }

    /// How long a test step may run, in nanoseconds, with the grace a step
    /// that honours cancellation has to stop by itself.
    let limit: UInt64
    private var place: Place?
    private var since: UInt64 = 0

    /// A clock for test steps of `seconds` (plus ``WorkerProbe/grace``).
    init(seconds: Double) {
        let total = max(0, seconds) + WorkerProbe.grace
        limit = total >= 1e9 ? UInt64.max : UInt64(total * 1_000_000_000)
    }

    /// Notes where the worker is at `time` (uptime nanoseconds, the
    /// parent's); true when it has been at the same test step for longer
    /// than the limit. Between test steps nothing runs against a limit.
    mutating func isOverrun(_ snapshot: SharedPosition.Snapshot, at time: UInt64) -> Bool {
        let now = Place(snapshot)
        guard now.stepKind != .none else {
            place = nil
            return false
        }
        guard now == place else {
            place = now
            since = time
            return false
        }
        return time >= since && time - since > limit
    }
}
