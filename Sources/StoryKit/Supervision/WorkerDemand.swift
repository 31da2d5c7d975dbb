/// When a run with `--jobs N` starts its workers beyond the first: once its
/// stories prove slow enough to gain from them.
///
/// For quick stories one worker and its parent already keep two cores busy,
/// and each worker more would only read, parse and match its share of the
/// files again: `--jobs 2` would cost more than one worker. Stories that take
/// time in their steps (CPU or waiting) gain from every worker.
struct WorkerDemand {
    /// A story that took at least this long in its worker is slow (a no-op
    /// story takes a few microseconds).
    static let slowStory: UInt64 = 50_000
    /// A story that runs this long is slow enough alone, whatever came
    /// before it (a paused no-op story takes a few milliseconds at most).
    static let longStory: UInt64 = 10_000_000

    /// Which of the last 16 stories to finish were slow, a bit each, the
    /// latest lowest.
    private var recentSlow: UInt16 = 0
    /// Whether a story took ``longStory`` or more.
    private var sawLongStory = false

    /// A story finished after `duration` nanoseconds in its worker.
    mutating func noteFinished(duration: UInt64) {
        recentSlow = recentSlow << 1 | (duration >= Self.slowStory ? 1 : 0)
        if duration >= Self.longStory { sawLongStory = true }
    }

    /// Whether more workers would help: half of the last 16 stories to
    /// finish were slow, or a story ran (or has been running, for
    /// `longestRunning` nanoseconds) for ``longStory``. By counting, not by
    /// an average, one story the machine paused does not decide it; by the
    /// latest, slow stories after many quick ones do.
    func wantsMore(longestRunning: UInt64) -> Bool {
        sawLongStory || recentSlow.nonzeroBitCount >= 8 || longestRunning >= Self.longStory
    }
}
