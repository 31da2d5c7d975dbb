/// Writes report files whole, through ``ReportFile``: a regular file by a
/// temporary file renamed over it (a killed run never leaves half a
/// report), a symlink through to its target, a device or FIFO directly.
enum AtomicFile {
    /// Writes the text to the path.
    /// - Throws: A ``Diagnostic`` naming the path, the reason and what to do,
    ///   when it cannot be written; no temporary file is left behind.
    static func write(_ text: String, to path: String) throws(Diagnostic) {
        let file = try ReportFile(path: path)
        try file.write(text)
        try file.commit()
    }
}
