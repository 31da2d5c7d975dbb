import Foundation

extension HTMLReporter {
    /// Attachments in the page's data, each `{"k":kind,…}`: `log` lines
    /// (`b` the text, ANSI colours and all), `img` images (`b` a data URL,
    /// `n` its name), `txt` text and JSON (`l` label, `b` body), `bin`
    /// anything else as a download (`b` a data URL, `n` name, `z` bytes),
    /// `none` an attachment whose body was left out (`l`); `nt` a note.
    func attachments(_ attachments: [Attachment], into json: inout JSONWriter) {
        guard !attachments.isEmpty else { return }
        json.key("at")
        json.beginArray()
        for attachment in attachments {
            json.beginObject()
            json.key("k")
            if let body = attachment.reportBody {
                Self.attachment(attachment, body: body, into: &json)
            } else {
                json.string("none" as StaticString)
                json.key("l")
                json.string(attachment.label)
            }
            if let note = attachment.limitNote {
                json.key("nt")
                json.string(note)
            }
            json.endObject()
        }
        json.endArray()
    }

    /// The kind and fields of an attachment with a body.
    private static func attachment(_ attachment: Attachment, body: String, into json: inout JSONWriter) {
        if attachment.mediaType == Attachment.logMediaType {
            json.string("log" as StaticString)
            json.key("b")
            json.string(body)
        } else if attachment.mediaType.hasPrefix("image/") {
            json.string("img" as StaticString)
            json.key("b")
            json.string("data:\(attachment.mediaType);base64,\(attachment.isText ? Data(body.utf8).base64EncodedString() : body)")
            json.key("n")
            json.string(attachment.name ?? "attached image")
            json.key("l")
            json.string(attachment.label)
        } else if attachment.isText {
            json.string("txt" as StaticString)
            json.key("l")
            json.string(attachment.label)
            json.key("b")
            json.string(body)
        } else {
            json.string("bin" as StaticString)
            json.key("b")
            json.string("data:\(attachment.mediaType);base64,\(body)")
            json.key("n")
            json.string(attachment.name ?? "attachment")
            json.key("l")
            json.string(attachment.label)
            json.key("z")
            json.integer(attachment.data.count)
        }
    }
}
