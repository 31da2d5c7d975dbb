#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a process that ran out of file descriptors holds them open on:
/// the clue to the code that leaks them (a file, a socket, `/dev/null`).
enum DescriptorCensus {
    /// Whether this process could open one more descriptor now: a copy
    /// of standard input (or, when that is closed, `/dev/null`), closed
    /// again at once. Two system calls.
    static func hasOneLeft() -> Bool {
        var copy = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
        if copy < 0 && errno == EBADF { copy = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        guard copy >= 0 else { return errno != EMFILE && errno != ENFILE }
        close(copy)
        return true
    }

    /// The target most of this process's descriptors are open on, with how
    /// many are, out of how many are open; nil when none can be looked at.
    /// Each is looked at through `/proc/self/fd` with `readlink`, which
    /// needs no descriptor of its own; at most 65,536 of them (a few
    /// milliseconds), once, when the worker has none left.
    static func mostShared() -> (target: String, count: Int, open: Int)? {
        #if os(Linux)
        var limit = rlimit()
        let highest = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(min(limit.rlim_cur, 65_536)) : 1024
        var counts: [String: Int] = [:]
        var open = 0
        var buffer = [CChar](repeating: 0, count: 4096)
        for descriptor in 0..<highest {
            let length = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/fd/\(descriptor)", $0.baseAddress!, $0.count - 1) }
            guard length > 0 else { continue }
            let target = buffer.withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer(start: $0.baseAddress!, count: length), as: UTF8.self) }
            counts[target, default: 0] += 1
            open += 1
        }
        guard let most = counts.max(by: { $0.value < $1.value }) else { return nil }
        return (most.key, most.value, open)
        #else
        return nil
        #endif
    }
}
