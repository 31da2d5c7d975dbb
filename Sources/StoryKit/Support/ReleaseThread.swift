import Dispatch

/// Frees large values on a thread of their own, so that the thread done
/// with them goes on at once.
///
/// A story of a million steps and its result took 0.3 to 0.4 s to free:
/// a supervised run's parent did it between reading the story's last line
/// and its worker's end, and so ended that much later than a run in
/// process. Only the freeing moves; what a value holds is the same.
enum ReleaseThread {
    private static let queue = DispatchQueue(label: "storyrun.release", qos: .utility)

    /// Frees `value` on the release thread. The caller hands over its last
    /// reference: the thread wakes some microseconds after the call
    /// returns, by when the caller's own copy is gone, so the freeing is
    /// the thread's (were the thread first, the caller would free it, as
    /// before: only time depends on it).
    static func free<Value: Sendable>(_ value: consuming Value) {
        queue.async { [value] in withExtendedLifetime(value) {} }
    }
}
