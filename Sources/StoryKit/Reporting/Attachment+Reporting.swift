/// How reports show an attachment, with one limit on size for all of them.
extension Attachment {
    /// The most characters of an attachment's body a report writes; a larger
    /// attachment is cut with a note that says so, never a broken report.
    static let reportLimit = 1 << 20

    /// Whether the body is larger than a report writes.
    var isOverLimit: Bool { body.utf8.count > Self.reportLimit }

    /// The body, cut at ``reportLimit`` (base64 bodies are left out whole
    /// rather than cut, since half an image is no image).
    var reportBody: String? {
        guard isOverLimit else { return body }
        return isText ? Self.withinLimit(body) : nil
    }

    /// A text's first ``reportLimit`` bytes, or fewer where that would cut
    /// a character in two.
    static func withinLimit(_ text: String) -> String {
        String(text.utf8.prefix(reportLimit)) ?? String(text.prefix(reportLimit / 4))
    }

    /// What a report says when the body was cut or left out.
    var limitNote: String? {
        guard isOverLimit else { return nil }
        let size = body.utf8.count
        return isText
            ? "(attachment cut: \(size) bytes, reports keep the first \(Self.reportLimit))"
            : "(attachment left out: \(size) bytes of base64, more than the \(Self.reportLimit) reports keep)"
    }

    /// The name and media type: `screenshot.png (image/png)`.
    var label: String {
        if mediaType == Self.logMediaType { return "log" }
        return (name.map { "\($0) " } ?? "") + "(\(mediaType))"
    }

    /// The attachment as lines of plain text for JUnit and terminals: text
    /// as it is, anything else as its label and size.
    func plainText(indent: String) -> String {
        let text: String
        if isText, let body = reportBody {
            let prefix = mediaType == Self.logMediaType ? "" : label + ": "
            text = prefix + body + (limitNote.map { "\n" + $0 } ?? "")
        } else {
            text = "\(label): \(data.count) bytes" + (limitNote.map { " " + $0 } ?? "")
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
    }
}
