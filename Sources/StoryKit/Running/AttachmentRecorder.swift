import Foundation

/// Collects what the running test step attaches, for its result.
final class AttachmentRecorder: @unchecked Sendable {
    // Unchecked: a recorder never leaves the task of the story that owns it.
    private var attachments: [Attachment] = []
    /// The story the recorder belongs to, for hooks that ask about it.
    var story: StoryInfo?

    @TaskLocal static var current: AttachmentRecorder?

    func add(_ attachment: Attachment) {
        attachments.append(attachment)
    }

    /// What was attached since the last call.
    func take() -> [Attachment] {
        guard !attachments.isEmpty else { return [] }
        defer { attachments = [] }
        return attachments
    }
}

/// Attaches bytes to the report of the running step or hook: a screenshot,
/// a response body, a file. HTML shows images inline; Cucumber JSON and
/// Messages carry it in base64; JUnit lists it.
///
/// ```swift
/// attach(png, mediaType: "image/png", name: "checkout.png")
/// ```
/// Bytes stay bytes whatever the media type, as Cucumber's `attach(Buffer)`:
/// for text, use ``attach(_:mediaType:name:)-(String,_,_)``.
/// Outside a story (in a before-run hook, say) the attachment is dropped.
public func attach(_ data: Data, mediaType: String, name: String? = nil) {
    AttachmentRecorder.current?.add(Attachment(body: data.base64EncodedString(), encoding: .base64, mediaType: mediaType, name: name))
}

/// Attaches text to the report of the running step or hook, with its media
/// type (`text/plain`, `application/json`…).
public func attach(_ text: String, mediaType: String = "text/plain", name: String? = nil) {
    AttachmentRecorder.current?.add(Attachment(body: text, encoding: .identity, mediaType: mediaType, name: name))
}

/// Writes a line to the report of the running step or hook (Cucumber's
/// `log`): shown under the step in every report.
public func log(_ text: String) {
    AttachmentRecorder.current?.add(Attachment(body: text, encoding: .identity, mediaType: Attachment.logMediaType))
}
