import Foundation

/// Something a step or hook attached to the report: a log line, a response
/// body, a screenshot, or what the code under test printed.
///
/// Text is kept as it is; anything else is kept in base64, as Cucumber
/// Messages carry it.
public struct Attachment: Sendable, Codable, Hashable {
    /// How ``body`` holds the content.
    public enum Encoding: String, Sendable, Codable {
        /// The body is the text itself.
        case identity = "IDENTITY"
        /// The body is the bytes in base64.
        case base64 = "BASE64"
    }

    /// The content: text, or base64 (see ``encoding``).
    public var body: String
    /// How the body is written.
    public var encoding: Encoding
    /// The media type, e.g. `text/plain`, `image/png`, `application/json`.
    public var mediaType: String
    /// A file name or title, if given.
    public var name: String?

    /// The media type Cucumber gives a `log` line; captured output uses it too.
    public static let logMediaType = "text/x.cucumber.log+plain"

    /// Creates an attachment.
    public init(body: String, encoding: Encoding, mediaType: String, name: String? = nil) {
        self.body = body
        self.encoding = encoding
        self.mediaType = mediaType
        self.name = name
    }

    /// The content as bytes.
    public var data: Data {
        switch encoding {
        case .identity: Data(body.utf8)
        case .base64: Data(base64Encoded: body) ?? Data()
        }
    }

    /// Whether the content is text a report can show as it is.
    public var isText: Bool { encoding == .identity }
}
