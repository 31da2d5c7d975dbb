import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A debugging log of DevTools round trips: with `STORYKIT_BROWSER_TRACE`
/// set to a path, every command answered (and every page opened) appends a
/// line `<ms since the process started> <ms it took> <what>` to
/// `<path>.<pid>`, stamped with the monotonic clock. Unset, it costs one
/// check of a constant per command.
enum CDPTrace {
    private static let file: Mutex<UnsafeMutablePointer<FILE>?> = {
        guard let path = ProcessInfo.processInfo.environment["STORYKIT_BROWSER_TRACE"], !path.isEmpty else { return Mutex(nil) }
        return Mutex(fopen("\(path).\(getpid())", "a"))
    }()

    static let isOn: Bool = ProcessInfo.processInfo.environment["STORYKIT_BROWSER_TRACE"].map { !$0.isEmpty } ?? false

    /// Milliseconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    /// Logs what began at `start` (from ``now()``) and ends now.
    static func log(_ what: String, since start: Double) {
        guard isOn else { return }
        let end = now()
        file.withLock { file in
            guard let file else { return }
            fputs(String(format: "%.1f %.1f ", end, end - start) + what + "\n", file)
            fflush(file)
        }
    }
}
