#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process may fork without exec: a child gets only the
/// forking thread, so a lock another thread held stays held for ever; and
/// libdispatch, once it has started threads, poisons its queues in a child
/// (Swift's concurrency runs on them). An event loop's epoll, eventfd or
/// timerfd would be one object shared by both processes, each taking the
/// other's wake-ups.
enum ForkCheck {
    /// True when this thread is the process's only one, libdispatch says it
    /// has started none, and no event-loop descriptor is open.
    static var isSafe: Bool {
        #if os(Linux)
        guard threadCount == 1, !dispatchIsMultithreaded() else { return false }
        return !hasEventDescriptors
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// The entries of /proc/self/task.
    private static var threadCount: Int {
        guard let folder = opendir("/proc/self/task") else { return 0 }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }

    /// libdispatch's own answer: linked directly, not looked up with
    /// `dlsym`, which finds nothing in a build with the Swift libraries
    /// linked in statically (`--static-swift-stdlib`).
    @_silgen_name("_dispatch_is_multithreaded")
    private static func dispatchIsMultithreaded() -> Bool

    /// Whether a descriptor is an epoll, eventfd or timerfd.
    private static var hasEventDescriptors: Bool {
        guard let folder = opendir("/proc/self/fd") else { return true }
        defer { closedir(folder) }
        var target = [CChar](repeating: 0, count: 64)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first != "." else { continue }
            let count = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
            guard count > 0 else { continue }
            let link = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("anon_inode:") && (link.contains("eventpoll") || link.contains("eventfd") || link.contains("timerfd")) {
                return true
            }
        }
        return false
    }
    #endif
}
