import Foundation

/// A temporary folder for a watch test, removed when the test ends.
final class WatchTestFolder: Sendable {
    let path = NSTemporaryDirectory() + "storyrun-watch-test-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a file (and the folders it needs) and returns its path.
    @discardableResult
    func write(_ relative: String, _ text: String = "Story: s\nGiven an empty basket\n") throws -> String {
        let file = path + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Runs `change` on another thread after `milliseconds`.
    @discardableResult
    static func later(_ milliseconds: Int, _ change: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(UInt32(milliseconds) * 1000)
            change()
            done.signal()
        }
        return done
    }

    /// A stop condition that holds after `seconds`, so no wait is unbounded.
    static func deadline(_ seconds: Double) -> () -> Bool {
        let end = Date().addingTimeInterval(seconds)
        return { Date() > end }
    }
}
