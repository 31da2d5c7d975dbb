import Foundation
import Testing

/// Golden files: expected outputs kept in `Fixtures/`, rewritten when
/// `STORYRUN_RECORD=1` is set (the run then fails, so the change is reviewed).
enum Golden {
    /// The package's root folder.
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The path of a file under `Fixtures/`.
    static func fixture(_ relative: String) -> String { root + "/Fixtures/" + relative }

    /// The names of the files in a fixture folder with an extension, sorted.
    static func files(in folder: String, withExtension ext: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixture(folder))) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted()
    }

    static var isRecording: Bool { ProcessInfo.processInfo.environment["STORYRUN_RECORD"] == "1" }

    /// Compares text with a golden file, or records it.
    static func check(_ actual: String, against relative: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = fixture(relative)
        if isRecording {
            try? actual.write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record("recorded \(relative); review it with git diff", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("missing golden file \(relative); run `make goldens`", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "differs from \(relative)", sourceLocation: sourceLocation)
    }

    /// Makes paths in output relative to the package root, so goldens do not
    /// depend on where the package is checked out: the paths as written, and
    /// as Cucumber JSON's ids write them (lower-cased, blanks as dashes), which
    /// differ when the checkout's path has a capital letter (a fresh clone in
    /// `mktemp -d`'s folder, a macOS home folder).
    static func relativize(_ text: String) -> String {
        text.replacingOccurrences(of: root + "/", with: "")
            .replacingOccurrences(of: root.lowercased().replacingOccurrences(of: " ", with: "-") + "/", with: "")
    }
}
