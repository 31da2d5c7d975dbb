import Foundation

/// Temporary folders for tests, all under one folder of this test process
/// that is removed when the process exits: a test run leaves nothing in the
/// temporary directory, even when a test fails halfway.
enum Scratch {
    /// The folder of this test process.
    static let root: String = {
        let root = NSTemporaryDirectory() + "storyrun-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.root) }
        return root
    }()

    /// A new empty folder under ``root``.
    static func folder(_ name: String) -> String {
        let folder = root + "/\(name)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
