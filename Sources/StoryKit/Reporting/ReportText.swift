/// Long texts from step code (a failure's message, a hook's, a pending
/// step's reason), cut for every report as JUnit cuts its failures and as
/// attachments are cut: at ``Attachment/reportLimit`` bytes (never half a
/// character), with a note that says so. A 20 MB failure message made a
/// 42 MB Messages report, a 20 MB Cucumber JSON one and 20 MB of terminal
/// output.
///
/// ```swift
/// ReportText.cut(String(repeating: "x", count: 2 << 20))
/// // the first 1048576 "x", then "\n(failure cut: 2097152 bytes, reports keep the first 1048576)"
/// ```
enum ReportText {
    /// The text, or its first ``Attachment/reportLimit`` bytes and a note
    /// (`(failure cut: N bytes, reports keep the first M)`) when it is longer.
    static func cut(_ text: String, what: String = "failure") -> String {
        let size = text.utf8.count
        guard size > Attachment.reportLimit else { return text }
        return Attachment.withinLimit(text) + "\n(\(what) cut: \(size) bytes, reports keep the first \(Attachment.reportLimit))"
    }
}
