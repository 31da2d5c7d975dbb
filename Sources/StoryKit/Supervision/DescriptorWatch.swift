#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the stories a worker runs leave it a descriptor to open.
///
/// A step that opens files and never closes them would make the stories
/// after it in its worker fail for nothing of their own (their steps could
/// open nothing). So before each story after the first, the worker checks
/// that it can still open one; when it cannot, it starts no more stories: a
/// new worker runs them, and the run fails naming the story that ran last.
/// A worker that had none before its first story (a before-run hook used
/// them up) is not watched: a new worker would start the same way.
struct DescriptorWatch {
    /// The story the worker ran last.
    private var last: Story?
    /// Whether it could open one before its first story; nil until then.
    private var isWatching: Bool?

    /// Notes a story the worker ran.
    mutating func ran(_ story: Story) {
        last = story
    }

    /// Why the worker must start no more stories, or nil when it may.
    mutating func leakBefore() -> String? {
        guard let isWatching else {
            isWatching = DescriptorCensus.hasOneLeft()
            return nil
        }
        guard isWatching, let last, !DescriptorCensus.hasOneLeft() else { return nil }
        var text = "a worker process had no descriptor left to open (\(String(cString: strerror(EMFILE))))"
        if let census = DescriptorCensus.mostShared() {
            text += ", \(census.count) of its \(census.open) open descriptors on \(census.target)"
        }
        return text + ": a step in \"\(last.name)\" (\(last.location.fileAndLine)), the story it ran last, may leak descriptors "
            + "(or a thread or process an earlier story left running); the worker started no more stories, so none fails for it"
    }
}
