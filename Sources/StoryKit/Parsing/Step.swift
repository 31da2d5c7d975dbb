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
        _read { yield fields.value.keyword }
        set { fields = fields.changed { $0.keyword = newValue } }
    }
    /// The kind, with `And` and `But` resolved to the kind of the step before.
    public var kind: Kind {
        get { fields.value.kind }
        set { fields = fields.changed { $0.kind = newValue } }
    }
    /// The text after the keyword.
    public var text: String {
        _read { yield fields.value.text }
        set { fields = fields.changed { $0.text = newValue } }
    }
    /// Where the step is written.
    public var location: SourceLocation {
        _read { yield fields.value.location }
        set { fields = fields.changed { $0.location = newValue } }
    }
    /// A doc string or data table written under the step (Gherkin only).
    public var attachment: StepAttachment? {
        _read { yield fields.value.attachment }
        set { fields = fields.changed { $0.attachment = newValue } }
    }

    /// The fields, in one shared reference (see ``Shared``).
    private var fields: Shared<Fields>

    /// Creates a step.
    public init(
        keyword: String, kind: Kind, text: String, location: SourceLocation,
        attachment: StepAttachment? = nil
    ) {
        fields = Shared(Fields(keyword: keyword, kind: kind, text: text, location: location, attachment: attachment))
    }

    /// A step's fields: what it compares, hashes and encodes (as the step
    /// itself did when they were its own).
    private struct Fields: Hashable, Sendable, Codable {
        var keyword: String
        var kind: Kind
        var text: String
        var location: SourceLocation
        var attachment: StepAttachment?
    }

    public init(from decoder: any Decoder) throws {
        fields = try Shared(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }

    /// The whole line as written, keyword included: what a Simon pattern sees.
    public var line: String { text.isEmpty ? keyword : "\(keyword) \(text)" }
}

/// Printed and dumped field by field, as before its fields were shared.
extension Step: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: fields.value).children, displayStyle: .struct)
    }
}
