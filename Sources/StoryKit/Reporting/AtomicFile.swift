import Foundation

/// Writes report files whole: to a temporary file beside the target, then
/// renamed over it, so a killed run never leaves half a report.
enum AtomicFile {
    /// Writes the text to the path.
    /// - Throws: A ``Diagnostic`` naming the path when it cannot be written.
    static func write(_ text: String, to path: String) throws(Diagnostic) {
        let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw Diagnostic(at: nil, problem: "cannot write the report \(path): \(error.localizedDescription)", help: "check that its folder exists and is writable")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Diagnostic(at: nil, problem: "cannot write the report \(path): \(reason)")
        }
    }
}
