import Foundation

extension HTMLReporter {
    /// Attachments in the page's data, each `{"k":kind,…}`: `log` lines
    /// (`b` the text, ANSI colours and all), `img` images (`b` a data URL,
    /// `n` its name), `txt` text and JSON (`l` label, `b` body), `bin`
    /// anything else as a download (`b` a data URL, `n` name, `z` bytes),
    /// `none` an attachment whose body was left out (`l`); `nt` a note.
    func attachments(_ attachments: [Attachment], into json: inout [UInt8]) {
        guard !attachments.isEmpty else { return }
        json.literal(",\"at\":[")
        for (number, attachment) in attachments.enumerated() {
            if number > 0 { json.append(UInt8(ascii: ",")) }
            json.literal("{\"k\":")
            if let body = attachment.reportBody {
                Self.attachment(attachment, body: body, into: &json)
            } else {
                json.literal("\"none\",\"l\":")
                json.scriptJSON(attachment.label)
            }
            if let note = attachment.limitNote {
                json.literal(",\"nt\":")
                json.scriptJSON(note)
            }
            json.append(UInt8(ascii: "}"))
        }
        json.append(UInt8(ascii: "]"))
    }

    /// The kind and fields of an attachment with a body.
    private static func attachment(_ attachment: Attachment, body: String, into json: inout [UInt8]) {
        if attachment.mediaType == Attachment.logMediaType {
            json.literal("\"log\",\"b\":")
            json.scriptJSON(body)
        } else if attachment.mediaType.hasPrefix("image/") {
            json.literal("\"img\",\"b\":")
            json.scriptJSON("data:\(attachment.mediaType);base64,\(attachment.isText ? Data(body.utf8).base64EncodedString() : body)")
            json.literal(",\"n\":")
            json.scriptJSON(attachment.name ?? "attached image")
            json.literal(",\"l\":")
            json.scriptJSON(attachment.label)
        } else if attachment.isText {
            json.literal("\"txt\",\"l\":")
            json.scriptJSON(attachment.label)
            json.literal(",\"b\":")
            json.scriptJSON(body)
        } else {
            json.literal("\"bin\",\"b\":")
            json.scriptJSON("data:\(attachment.mediaType);base64,\(body)")
            json.literal(",\"n\":")
            json.scriptJSON(attachment.name ?? "attachment")
            json.literal(",\"l\":")
            json.scriptJSON(attachment.label)
            json.literal(",\"z\":")
            json.decimal(attachment.data.count)
        }
    }

}
