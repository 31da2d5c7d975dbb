#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes report files whole, through ``ReportFile``: a regular file by a
/// temporary file renamed over it (a killed run never leaves half a
/// report), a symlink through to its target, a device or FIFO directly.
enum AtomicFile {
    /// Writes the text to the path; inside ``ReportBatch/collect(_:)`` the
    /// rename waits for the batch's ``ReportBatch/publish()``.
    /// - Throws: A ``Diagnostic`` naming the path, the reason and what to do,
    ///   when it cannot be written; no temporary file is left behind.
    static func write(_ text: String, to path: String) throws(Diagnostic) {
        try write(to: path) { file throws(Diagnostic) in try file.write(text) }
    }

    /// Writes what `body` writes to the report file at the path, as
    /// ``write(_:to:)`` does: for reports assembled from pieces.
    static func write(to path: String, _ body: (ReportFile) throws(Diagnostic) -> Void) throws(Diagnostic) {
        let batch = ReportBatch.current
        let file = try ReportFile(path: path, earlierMode: batch?.earlierModes[path], target: batch?.targets[path])
        try body(file)
        if let batch = ReportBatch.current {
            try file.prepare()
            batch.add(file)
        } else {
            try file.commit()
        }
    }
}

/// The report files of one run, written whole under temporary names first
/// and then renamed one right after another, so a run killed while it
/// writes its reports leaves either none of them (the earlier ones went
/// when the run started, see ``EarlierReport``) or all the new ones (but
/// for the few microseconds of the renames).
final class ReportBatch: @unchecked Sendable {
    // Unchecked: a batch is filled by one thread at a time (each report
    // thread its own), then published by the thread that ends the run.
    private var files: [ReportFile] = []

    /// The permission bits of the earlier reports the run removed when it
    /// started (see ``EarlierReport``), by report path: a report that
    /// existed keeps its mode, as when it was renamed over.
    var earlierModes: [String: mode_t] = [:]

    /// The report paths as the run resolved them when it started, by the
    /// path as the user gave it (see ``ReportTarget``): a report is written
    /// where its path led then.
    var targets: [String: Result<ReportTarget, Diagnostic>] = [:]

    @TaskLocal static var current: ReportBatch?

    fileprivate func add(_ file: ReportFile) {
        files.append(file)
    }

    /// Runs `body`, whose reports are written whole under their temporary
    /// names and wait in this batch for ``publish()``.
    func collect(_ body: () -> Void) {
        Self.$current.withValue(self) { body() }
    }

    /// Takes the reports another batch collected, to publish with these.
    func adopt(_ other: ReportBatch) {
        files += other.files
        other.files = []
    }

    /// Renames every report of the batch into place, one right after
    /// another, then syncs each of their folders once (not once per
    /// report: the five reports of a run in one folder paid five syncs);
    /// returns what could not be renamed.
    func publish() -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var folders: [String: Int32] = [:]
        for file in files {
            do {
                if let folder = try file.rename(), folders[folder.path] == nil { folders[folder.path] = folder.descriptor }
            } catch {
                problems.append(error)
            }
        }
        for descriptor in folders.values { _ = fsync(descriptor) }
        files = []
        return problems
    }
}
