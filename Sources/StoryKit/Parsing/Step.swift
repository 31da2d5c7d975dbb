/// One line of a story that maps to a step definition.
public struct Step: Hashable, Sendable, Codable {
    /// The part a step plays in a story.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// `As …`: who the story is for.
        case role
        /// `Given …`: the context.
        case context
        /// `When …`: the action.
        case action
        /// `Then …`: the outcome.
        case outcome
        /// `*` in Gherkin, or a keyword with no kind of its own.
        case unknown
    }

    /// The keyword as written, without trailing blanks (`Given`, `and`, `*`).
    public var keyword: String {
        _read { yield fields.keyword }
        set { fields = Fields(keyword: newValue, kind: kind, text: text, location: location, attachment: attachment) }
    }
    /// The kind, with `And` and `But` resolved to the kind of the step before.
    public var kind: Kind {
        get { fields.kind }
        set { fields = Fields(keyword: keyword, kind: newValue, text: text, location: location, attachment: attachment) }
    }
    /// The text after the keyword.
    public var text: String {
        _read { yield fields.text }
        set { fields = Fields(keyword: keyword, kind: kind, text: newValue, location: location, attachment: attachment) }
    }
    /// Where the step is written.
    public var location: SourceLocation {
        _read { yield fields.location }
        set { fields = Fields(keyword: keyword, kind: kind, text: text, location: newValue, attachment: attachment) }
    }
    /// A doc string or data table written under the step (Gherkin only).
    public var attachment: StepAttachment? {
        _read { yield fields.attachment }
        set { fields = Fields(keyword: keyword, kind: kind, text: text, location: location, attachment: newValue) }
    }

    /// The fields in one shared, immutable reference: a step is copied into
    /// every result and event that names it, and a copy is then one retain
    /// rather than one per string. Setting a field makes a new reference.
    private var fields: Fields

    /// Creates a step.
    public init(
        keyword: String, kind: Kind, text: String, location: SourceLocation,
        attachment: StepAttachment? = nil
    ) {
        fields = Fields(keyword: keyword, kind: kind, text: text, location: location, attachment: attachment)
    }

    public static func == (lhs: Step, rhs: Step) -> Bool {
        lhs.fields === rhs.fields
            || (lhs.keyword == rhs.keyword && lhs.kind == rhs.kind && lhs.text == rhs.text && lhs.location == rhs.location
                && lhs.attachment == rhs.attachment)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyword)
        hasher.combine(kind)
        hasher.combine(text)
        hasher.combine(location)
        hasher.combine(attachment)
    }

    private enum CodingKeys: String, CodingKey {
        case keyword, kind, text, location, attachment
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            keyword: try container.decode(String.self, forKey: .keyword),
            kind: try container.decode(Kind.self, forKey: .kind),
            text: try container.decode(String.self, forKey: .text),
            location: try container.decode(SourceLocation.self, forKey: .location),
            attachment: try container.decodeIfPresent(StepAttachment.self, forKey: .attachment))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keyword, forKey: .keyword)
        try container.encode(kind, forKey: .kind)
        try container.encode(text, forKey: .text)
        try container.encode(location, forKey: .location)
        try container.encodeIfPresent(attachment, forKey: .attachment)
    }

    /// A step's fields, never changed once made (so shared freely).
    private final class Fields: Sendable {
        let keyword: String
        let kind: Kind
        let text: String
        let location: SourceLocation
        let attachment: StepAttachment?

        init(keyword: String, kind: Kind, text: String, location: SourceLocation, attachment: StepAttachment?) {
            self.keyword = keyword
            self.kind = kind
            self.text = text
            self.location = location
            self.attachment = attachment
        }
    }

    /// The whole line as written, keyword included: what a Simon pattern sees.
    public var line: String { text.isEmpty ? keyword : "\(keyword) \(text)" }
}

/// Printed and dumped field by field, as before its fields were shared.
extension Step: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: ["keyword": keyword, "kind": kind, "text": text, "location": location, "attachment": attachment as Any], displayStyle: .struct)
    }
}
