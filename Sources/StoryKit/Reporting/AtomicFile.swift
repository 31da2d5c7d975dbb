/// Writes report files whole, through ``ReportFile``: a regular file by a
/// temporary file renamed over it (a killed run never leaves half a
/// report), a symlink through to its target, a device or FIFO directly.
enum AtomicFile {
    /// Writes the text to the path; inside ``ReportBatch/run(_:)`` the
    /// rename waits for the batch.
    /// - Throws: A ``Diagnostic`` naming the path, the reason and what to do,
    ///   when it cannot be written; no temporary file is left behind.
    static func write(_ text: String, to path: String) throws(Diagnostic) {
        try write(to: path) { file throws(Diagnostic) in try file.write(text) }
    }

    /// Writes what `body` writes to the report file at the path, as
    /// ``write(_:to:)`` does: for reports assembled from pieces.
    static func write(to path: String, _ body: (ReportFile) throws(Diagnostic) -> Void) throws(Diagnostic) {
        let file = try ReportFile(path: path)
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
/// writes its reports leaves either the old reports or the new ones, not a
/// mix of the two (but for the few microseconds of the renames).
final class ReportBatch: @unchecked Sendable {
    // Unchecked: a batch is used by the one task that finishes the reports.
    private var files: [ReportFile] = []

    @TaskLocal static var current: ReportBatch?

    fileprivate func add(_ file: ReportFile) {
        files.append(file)
    }

    /// Runs `body` (which finishes the reports), then renames every report
    /// it wrote; returns the problems, one per report that could not be
    /// renamed.
    static func run(_ body: () -> Void) -> [Diagnostic] {
        let batch = ReportBatch()
        $current.withValue(batch) { body() }
        var problems: [Diagnostic] = []
        for file in batch.files {
            do {
                try file.publish()
            } catch {
                problems.append(error)
            }
        }
        return problems
    }
}
